package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dankyu/dankyu/registry"
)

// idcheck prints one line per number; it fails when any is invalid.
func idcheck(_ context.Context, c *call, args []string) error {
	fs := c.flags()
	asJSON := fs.Bool("json", false, "print one JSON object per number")
	if err := c.parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError("no ID numbers to check")
	}
	now := time.Now()
	stdout := c.stdout
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	invalid := 0
	for _, id := range fs.Args() {
		_, err := registry.ParseResidentID(id, now)
		reason := ""
		if err != nil {
			invalid++
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
	if invalid > 0 {
		return fmt.Errorf("%d of %d numbers invalid", invalid, fs.NArg())
	}
	return nil
}
