package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/dankyu/dankyu/registry"
)

// idcheck prints one line per number; exit status 1 when any is invalid.
func idcheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("idcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per number")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: dankyu idcheck [--json] ID...")
		return 2
	}
	now := time.Now()
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	code := 0
	for _, id := range fs.Args() {
		_, err := registry.ParseResidentID(id, now)
		reason := ""
		if err != nil {
			code = 1
			var ie *registry.IDError
			if errors.As(err, &ie) {
				reason = ie.Error()
			} else {
				reason = err.Error()
			}
		}
		if *asJSON {
			_ = enc.Encode(struct {
				ID     string `json:"id"`
				Valid  bool   `json:"valid"`
				Reason string `json:"reason"`
			}{id, err == nil, reason})
			continue
		}
		if err == nil {
			fmt.Fprintf(stdout, "%s\tvalid\n", id)
		} else {
			fmt.Fprintf(stdout, "%s\tinvalid\t%s\n", id, reason)
		}
	}
	return code
}
