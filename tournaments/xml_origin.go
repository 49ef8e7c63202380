package tournaments

import (
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
)

// An XML file with OpenGotha's root element may be another program's
// (MacMahon 3 saves its tournaments as XML with a <Tournament> root too):
// xmlOrigin gathers what the file says of the program that wrote it, so
// that such a file is refused by name instead of read as an empty event.
type xmlOrigin struct {
	root     string // the root element, when it is not <Tournament>
	program  string
	version  string
	ogMarks  bool   // the root has attributes only OpenGotha writes
	ogChild  bool   // the root has an element only OpenGotha writes
	capture  string // "program" or "version": the next text is its value
	elements int
}

// ogRootAttrs are the root attributes OpenGotha 3.x writes.
var ogRootAttrs = map[string]bool{"dataVersion": true, "gothaVersion": true, "gothaMinorVersion": true,
	"fullVersionNumber": true, "runningMode": true, "saveDT": true, "externalIPAddress": true}

// ogChildren are the elements OpenGotha writes under the root.
var ogChildren = map[string]bool{"Players": true, "Games": true, "ByePlayer": true, "ByePlayers": true,
	"TournamentParameterSet": true, "TeamTournamentParameterSet": true, "Teams": true, "ClubsGroups": true}

// programText finds "<name> <version>" in a comment: "Created by MacMahon 3.10".
var programText = regexp.MustCompile(`([A-Z][A-Za-z0-9._-]*(?: [A-Z][A-Za-z0-9._-]*)?)\s+(?:[vV](?:ersion)?\s*)?([0-9]+\.[0-9]+(?:\.[0-9]+)?)`)

// maxOriginElements bounds how far into the file the program is looked for.
const maxOriginElements = 64

func kindOf(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "data"), strings.Contains(n, "type"), strings.Contains(n, "schema"), strings.Contains(n, "format"), strings.Contains(n, "file"):
		return "" // the version of a file format, not of the program
	case strings.Contains(n, "version"):
		return "version"
	case strings.Contains(n, "program"), strings.Contains(n, "application"), strings.Contains(n, "generator"),
		strings.Contains(n, "creator"), strings.Contains(n, "software"), strings.Contains(n, "producer"):
		return "program"
	}
	return ""
}

func (o *xmlOrigin) set(kind, v string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	switch {
	case kind == "version" && o.version == "":
		o.version = clip(v)
	case kind == "program" && o.program == "":
		// "MacMahon 3.10" names both
		if m := programText.FindStringSubmatch(v); m != nil && o.version == "" {
			o.program, o.version = clip(strings.TrimSpace(m[1])), m[2]
			return
		}
		o.program = clip(v)
	}
}

// element notes what an element says of the file's origin.
func (o *xmlOrigin) element(depth int, se xml.StartElement) {
	o.elements++
	o.capture = ""
	if o.elements > maxOriginElements {
		return
	}
	if depth == 1 {
		for _, a := range se.Attr {
			if ogRootAttrs[a.Name.Local] {
				o.ogMarks = true
			}
		}
	}
	if depth == 2 && ogChildren[se.Name.Local] {
		o.ogChild = true
	}
	if o.ogMarks {
		return // OpenGotha's own version attributes are read as its own
	}
	for _, a := range se.Attr {
		if k := kindOf(a.Name.Local); k != "" {
			o.set(k, a.Value)
		}
	}
	if depth > 1 {
		o.capture = kindOf(se.Name.Local)
	}
}

// value is the text of the element last started.
func (o *xmlOrigin) value(s string) {
	if o.capture != "" {
		o.set(o.capture, s)
		o.capture = ""
	}
}

// fromText reads a comment or processing instruction: "MacMahon 3.10".
func (o *xmlOrigin) fromText(s string) {
	if o.program != "" || o.elements > maxOriginElements {
		return
	}
	if m := programText.FindStringSubmatch(s); m != nil {
		o.program = clip(strings.TrimSpace(m[1]))
		if o.version == "" {
			o.version = m[2]
		}
	}
}

// other reports a file that names a program other than OpenGotha and
// carries none of OpenGotha's own marks.
func (o *xmlOrigin) other() bool {
	if o.ogMarks {
		return false
	}
	return (o.program != "" && !strings.Contains(strings.ToLower(o.program), "gotha")) || o.version != ""
}

// refusal words the file as another program's: named when it says which.
func (o *xmlOrigin) refusal(line int) *FormatError {
	if line < 1 {
		line = 1
	}
	root := o.root
	if root == "" {
		root = "Tournament"
	}
	if o.program == "" && o.version == "" {
		return &FormatError{Format: "opengotha", Line: line, Reason: ReasonFileNotOpenGotha,
			Params: []ledger.Param{ledger.Value("line", strconv.Itoa(line)), ledger.Value("root", clip(root)), ledger.Value("reader", "OpenGotha")}}
	}
	p := []ledger.Param{ledger.Value("line", strconv.Itoa(line)), ledger.Value("root", clip(root)), ledger.Value("reader", "OpenGotha")}
	if o.program != "" {
		p = append(p, ledger.Value("program", o.program))
	} else {
		p = append(p, ledger.Words("program", "未写明名称的程序", "a program that does not give its name"))
	}
	if o.version != "" {
		p = append(p, ledger.Value("version", o.version))
	} else {
		p = append(p, ledger.Words("version", "未写明", "not given"))
	}
	return &FormatError{Format: "opengotha", Line: line, Reason: ReasonFileOtherProgram, Params: p}
}
