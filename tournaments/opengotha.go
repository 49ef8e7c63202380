package tournaments

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/dankyu/dankyu/ledger"
)

// ogResults maps OpenGotha's results (black's view) to ours; the _BYDEF
// ones were not played.
var ogResults = map[string]Result{
	"RESULT_UNKNOWN":         NoResult,
	"RESULT_BLACKWINS":       BlackWins,
	"RESULT_WHITEWINS":       WhiteWins,
	"RESULT_EQUAL":           Draw,
	"RESULT_BOTHWIN":         BothWin,
	"RESULT_BOTHLOSE":        BothLose,
	"RESULT_BLACKWINS_BYDEF": BlackForfeit,
	"RESULT_WHITEWINS_BYDEF": WhiteForfeit,
	"RESULT_EQUAL_BYDEF":     Draw,
	"RESULT_BOTHWIN_BYDEF":   BothWin,
	"RESULT_BOTHLOSE_BYDEF":  BothLose,
}

// ogKey is how OpenGotha names a player in games and byes: surname and
// given name run together in upper case. Versions differ in the spaces
// (removed, or written as _) and bye keys may keep the names' case, so
// keys are compared without case, spaces or underscores.
func ogKey(s string) string {
	return strings.ToUpper(strings.NewReplacer(" ", "", "_", "", "\t", "", "\n", "").Replace(s))
}

// ogLooseKey folds what the writer's locale changes in a key: OpenGotha
// upper-cases with the JVM's locale (under Turkish rules i becomes İ and ı
// becomes I, so ADALBİRAND), and reading a file it falls back to the key
// with its accents and Turkish letters folded to ASCII. The loose key
// drops accents and dots (NFKD, then the marks), folds ı to i and folds
// case fully (ß and SS alike), whatever the locale.
func ogLooseKey(s string) string {
	var b strings.Builder
	for _, r := range norm.NFKD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r), unicode.IsSpace(r), r == '_':
			continue
		case r == 'ı':
			r = 'i'
		}
		b.WriteRune(r)
	}
	return cases.Fold().String(b.String())
}

// ogKeys finds a player by the key a game or bye gives: the exact key
// first, then the loose one when a single player has it.
type ogKeys struct {
	strict map[string]int
	loose  map[string]int // 0: more than one player folds to it
}

func (k ogKeys) add(key string, id int) bool {
	if _, dup := k.strict[ogKey(key)]; dup {
		return false
	}
	k.strict[ogKey(key)] = id
	l := ogLooseKey(key)
	if _, seen := k.loose[l]; seen {
		k.loose[l] = 0
	} else {
		k.loose[l] = id
	}
	return true
}

func (k ogKeys) find(key string) (int, bool) {
	if id, ok := k.strict[ogKey(key)]; ok {
		return id, true
	}
	id := k.loose[ogLooseKey(key)]
	return id, id > 0
}

func nameField(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "_", " ")) }

// ParseOpenGotha reads an OpenGotha tournament file (XML, any version from
// 3.x): players, games, byes and the general parameters. Errors name the line.
func ParseOpenGotha(data []byte) (*Imported, error) { return parseOpenGotha(data, "") }

func parseOpenGotha(data []byte, enc string) (*Imported, error) {
	t := &Imported{Format: "opengotha", Encoding: "UTF-8"}
	if bytes.HasPrefix(data, bom) {
		data, t.Encoding = data[3:], "UTF-8 (BOM)"
	}
	decoded := false
	if enc != "" {
		// a chosen encoding wins over the declaration (or its absence)
		text, used, err := decodeText(data, enc)
		if err != nil {
			return nil, inFormat(err, "opengotha")
		}
		data, t.Encoding, decoded = []byte(text), used, true
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	var charsetErr error // the decoder words it in English; keep the coded one
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if decoded {
			return r, nil
		}
		e, name, err := encodingByName(label)
		if err != nil {
			charsetErr = err
			return nil, err
		}
		t.Encoding = name
		if e == nil {
			return r, nil
		}
		return e.NewDecoder().Reader(r), nil
	}
	line := func() int { l, _ := dec.InputPos(); return l }
	fail := func(r *ledger.Reason, params ...string) error {
		return fileError("opengotha", line(), r, params...)
	}
	keys := ogKeys{strict: map[string]int{}, loose: map[string]int{}}
	// every bye of the file, in its order: a round may have more than one
	type bye struct{ round, player, line int }
	var byes []bye
	byeValue := WinPoints
	depth, sawRoot := 0, false
	var origin xmlOrigin
	notOurs := func() error {
		return origin.refusal(line())
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if charsetErr != nil {
			fe := inFormat(charsetErr, "opengotha")
			fe.Line = line()
			return nil, fe
		}
		if err != nil {
			return nil, fail(ReasonFileSyntax)
		}
		switch tk := tok.(type) {
		case xml.EndElement:
			depth--
		case xml.Comment:
			origin.fromText(string(tk))
		case xml.ProcInst:
			if tk.Target != "xml" {
				origin.fromText(tk.Target + " " + string(tk.Inst))
			}
		case xml.CharData:
			origin.value(string(tk))
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		depth++
		origin.element(depth, se)
		if depth == 1 {
			sawRoot = true
			if se.Name.Local != "Tournament" {
				origin.root = se.Name.Local
				return nil, notOurs()
			}
			if origin.other() {
				return nil, notOurs() // another program's file with OpenGotha's root element
			}
		}
		attr := func(name string) string {
			for _, a := range se.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		switch se.Name.Local {
		case "Tournament":
			if depth != 1 {
				continue
			}
			switch v := attr("fullVersionNumber"); {
			case v != "":
				t.Program = "OpenGotha " + v
			case len(attr("gothaVersion")) == 3:
				// older files say 345 for 3.45 and the minor apart
				v := attr("gothaVersion")
				t.Program = "OpenGotha " + v[:1] + "." + v[1:]
				if m := attr("gothaMinorVersion"); m != "" {
					t.Program += "." + m
				}
			}
		case "Player":
			if len(se.Attr) == 0 {
				return nil, notOurs() // OpenGotha writes a player's data as attributes
			}
			// OpenGotha writes the spaces inside a name as _ (le_Galiard), as h-files do
			p := ImportedPlayer{ID: len(t.Players) + 1, Surname: nameField(attr("name")), Given: nameField(attr("firstName")),
				Rank: strings.ToUpper(strings.TrimSpace(attr("rank"))), Country: strings.TrimSpace(attr("country")), Club: strings.TrimSpace(attr("club")),
				Line: line()}
			// participating: one 0 or 1 a round, 0 for a round he is marked absent
			for i, c := range attr("participating") {
				if c == '0' && i < maxRounds {
					p.Absent = append(p.Absent, i+1)
				}
			}
			if p.Surname == "" {
				return nil, fail(ReasonFilePlayerNoName)
			}
			if !rankRe.MatchString(p.Rank) {
				t.warn(line(), 0, attr("rank"), "player %s: rank is not like 2D or 14K: kept as written", p.Name())
			}
			if pin, ok := egdPin(attr("egfPin")); ok {
				p.EGDPin = pin
			} else {
				t.warn(line(), 0, attr("egfPin"), "player %s: egfPin is not a number: not kept", p.Name())
			}
			if !keys.add(attr("name")+attr("firstName"), p.ID) {
				return nil, fail(ReasonFilePlayerTwice, "name", p.Name())
			}
			t.Players = append(t.Players, p)
		case "Game":
			round, err := strconv.Atoi(attr("roundNumber"))
			if err != nil || round < 1 || round > maxRounds {
				return nil, fail(ReasonFileGameRound, "max", strconv.Itoa(maxRounds))
			}
			b, okB := keys.find(attr("blackPlayer"))
			w, okW := keys.find(attr("whitePlayer"))
			if !okB || !okW || b == w {
				return nil, fail(ReasonFileGamePlayers, "round", strconv.Itoa(round), "black", attr("blackPlayer"), "white", attr("whitePlayer"))
			}
			res, ok := ogResults[attr("result")]
			if !ok {
				return nil, fail(ReasonFileResult, "round", strconv.Itoa(round), "result", attr("result"))
			}
			hd, _ := strconv.Atoi(attr("handicap"))
			// OpenGotha writes its tables from 1 (and reads them less one)
			board, _ := strconv.Atoi(attr("tableNumber"))
			t.Games = append(t.Games, ImportedGame{Game: Game{Round: round, Board: board, Black: b, White: w, Result: res, Handicap: hd},
				Default: strings.HasSuffix(attr("result"), "_BYDEF"), Line: line()})
		case "ByePlayer":
			if len(se.Attr) == 0 {
				continue // OpenGotha 3.52 wraps the byes in a <ByePlayer> of its own
			}
			round, err := strconv.Atoi(attr("roundNumber"))
			id, ok := keys.find(attr("player"))
			if err != nil || round < 1 || round > maxRounds || !ok {
				return nil, fail(ReasonFileBye, "player", attr("player"), "round", attr("roundNumber"))
			}
			byes = append(byes, bye{round, id, line()})
		case "GeneralParameterSet":
			t.Name, t.Location = attr("name"), attr("location")
			t.Start, t.End, t.DateLine = attr("beginDate"), attr("endDate"), line()
			t.Komi, _ = strconv.ParseFloat(attr("komi"), 64)
			// OpenGotha counts wins twice (NBW2), which is our scale: win 2
			if v, err := strconv.Atoi(attr("genNBW2ValueBye")); err == nil {
				byeValue = v
			}
		}
	}
	if !sawRoot {
		return nil, wholeFile("opengotha", 1, ReasonFileNotATournament)
	}
	if !origin.ogMarks && !origin.ogChild {
		return nil, notOurs()
	}
	played := map[[2]int]bool{}
	for _, g := range t.Games {
		played[[2]int{g.Round, g.Black}], played[[2]int{g.Round, g.White}] = true, true
	}
	slices.SortStableFunc(byes, func(a, b bye) int { return a.round - b.round })
	for _, b := range byes {
		if played[[2]int{b.round, b.player}] {
			t.warn(b.line, 0, "", "round %d: %s has a bye and a game: the bye is not kept", b.round, t.Players[b.player-1].Name())
			continue
		}
		played[[2]int{b.round, b.player}] = true // a bye written twice is one bye
		t.Byes = append(t.Byes, Bye{Round: b.round, Player: b.player, Points: byeValue})
	}
	t.countRounds()
	t.keepPlayers()
	return t, nil
}

// DetectFormat names the format of a tournament file: "opengotha" for XML,
// "pairgoth" for JSON, "h9" for an EGD report.
func DetectFormat(data []byte) (string, error) {
	head := bytes.TrimSpace(bytes.TrimPrefix(data, bom))
	switch {
	case len(head) == 0:
		return "", wholeFile("", 1, ReasonFileEmpty)
	case head[0] == '<':
		return "opengotha", nil
	case head[0] == '{':
		return "pairgoth", nil
	}
	return "h9", nil
}

// ReadOptions choose how Read takes a file; the zero value detects everything.
type ReadOptions struct {
	Format   string // "h9", "opengotha", "pairgoth" or "" to detect
	Encoding string // a charset name ("gbk", "latin1", "windows-1251" …) or "" to detect
}

// Import reads a tournament file in the given format ("" to detect it).
func Import(data []byte, format string) (*Imported, error) {
	return Read(data, ReadOptions{Format: format})
}

// The bounds of one import, checked before the file is read and after:
// the largest real file of testdata/real (EGC 2013, OpenGotha) is 525 KB.
const (
	MaxImportBytes   = 4 << 20
	MaxImportPlayers = 5000
	MaxImportGames   = 50000
)

// Read reads a tournament file.
func Read(data []byte, o ReadOptions) (*Imported, error) {
	if len(data) > MaxImportBytes {
		return nil, wholeFile("", 0, ReasonFileTooLarge, "bytes", strconv.Itoa(len(data)), "max", strconv.Itoa(MaxImportBytes))
	}
	t, err := read(data, o)
	if err != nil {
		return nil, err
	}
	if len(t.Games) == 0 && len(t.Byes) == 0 {
		// an event not yet played, or another program's file read as one
		return nil, wholeFile(t.Format, 1, ReasonFileNoGames, "players", strconv.Itoa(t.listed))
	}
	if len(t.Players) > MaxImportPlayers {
		return nil, wholeFile(t.Format, 0, ReasonFileTooManyPlayers, "players", strconv.Itoa(len(t.Players)), "max", strconv.Itoa(MaxImportPlayers))
	}
	if len(t.Games) > MaxImportGames {
		return nil, wholeFile(t.Format, 0, ReasonFileTooManyGames, "games", strconv.Itoa(len(t.Games)), "max", strconv.Itoa(MaxImportGames))
	}
	t.check()
	return t, nil
}

func read(data []byte, o ReadOptions) (*Imported, error) {
	format := o.Format
	if format == "" {
		f, err := DetectFormat(data)
		if err != nil {
			return nil, err
		}
		format = f
	}
	switch format {
	case "h9":
		return parseH9(data, o.Encoding)
	case "opengotha":
		return parseOpenGotha(data, o.Encoding)
	case "pairgoth":
		return ParsePairgoth(data)
	}
	return nil, wholeFile("", 1, ReasonFileFormat, "format", format)
}
