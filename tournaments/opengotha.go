package tournaments

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ogResults maps OpenGotha's results (black's view) to ours.
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

// ogKey is how OpenGotha names a player in games: surname and given name
// run together, upper case, without spaces.
func ogKey(name, first string) string {
	return strings.ToUpper(strings.ReplaceAll(name+first, " ", ""))
}

// ParseOpenGotha reads an OpenGotha tournament file (XML): players, games,
// byes and the general parameters. Errors name the line.
func ParseOpenGotha(data []byte) (*Imported, error) {
	t := &Imported{Format: "opengotha"}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.CharsetReader = func(label string, r io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "ISO-8859-1") || strings.EqualFold(label, "windows-1252") {
			b, err := io.ReadAll(r)
			if err != nil {
				return nil, err
			}
			s, err := decodeText(b)
			return strings.NewReader(s), err
		}
		return nil, fmt.Errorf("unsupported encoding %q", label)
	}
	fail := func(format string, args ...any) error {
		line, _ := dec.InputPos()
		return &FormatError{"opengotha", line, fmt.Sprintf(format, args...)}
	}
	keys := map[string]int{}
	byeRounds := map[int]int{}
	byeValue := WinPoints
	sawRoot := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, _ := dec.InputPos()
			return nil, &FormatError{"opengotha", line, err.Error()}
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
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
			sawRoot = true
		case "Player":
			p := ImportedPlayer{ID: len(t.Players) + 1, Surname: strings.TrimSpace(attr("name")), Given: strings.TrimSpace(attr("firstName")),
				Rank: strings.ToUpper(attr("rank")), Country: attr("country"), Club: attr("club"), EGDPin: attr("egfPin")}
			if p.Surname == "" {
				return nil, fail("a player has no name")
			}
			if !rankRe.MatchString(p.Rank) {
				return nil, fail("player %s: rank %q is not like 2D or 14K", p.Name(), p.Rank)
			}
			k := ogKey(p.Surname, p.Given)
			if _, dup := keys[k]; dup {
				return nil, fail("player %s appears twice", p.Name())
			}
			keys[k] = p.ID
			t.Players = append(t.Players, p)
		case "Game":
			round, err := strconv.Atoi(attr("roundNumber"))
			if err != nil || round < 1 {
				return nil, fail("game without a round number")
			}
			b, okB := keys[attr("blackPlayer")]
			w, okW := keys[attr("whitePlayer")]
			if !okB || !okW {
				return nil, fail("round %d: game between %q and %q names a player not in <Players>", round, attr("blackPlayer"), attr("whitePlayer"))
			}
			res, ok := ogResults[attr("result")]
			if !ok {
				return nil, fail("round %d: unknown result %q", round, attr("result"))
			}
			hd, _ := strconv.Atoi(attr("handicap"))
			board, _ := strconv.Atoi(attr("tableNumber"))
			t.Games = append(t.Games, Game{Round: round, Board: board + 1, Black: b, White: w, Result: res, Handicap: hd})
		case "ByePlayer":
			round, err := strconv.Atoi(attr("roundNumber"))
			id, ok := keys[attr("player")]
			if err != nil || !ok {
				return nil, fail("bye for %q in round %q: unknown player or round", attr("player"), attr("roundNumber"))
			}
			byeRounds[round] = id
		case "GeneralParameterSet":
			t.Name, t.Location = attr("name"), attr("location")
			t.Start, t.End = attr("beginDate"), attr("endDate")
			t.Komi, _ = strconv.ParseFloat(attr("komi"), 64)
			// OpenGotha counts wins twice (NBW2), which is our scale: win 2
			if v, err := strconv.Atoi(attr("genNBW2ValueBye")); err == nil {
				byeValue = v
			}
		}
	}
	if !sawRoot {
		return nil, &FormatError{"opengotha", 1, "not an OpenGotha file: no <Tournament> element"}
	}
	for round, id := range byeRounds {
		t.Byes = append(t.Byes, Bye{Round: round, Player: id, Points: byeValue})
	}
	for _, g := range t.Games {
		t.Rounds = max(t.Rounds, g.Round)
	}
	for _, b := range t.Byes {
		t.Rounds = max(t.Rounds, b.Round)
	}
	t.keepPlayers()
	return t, nil
}

// DetectFormat names the format of a tournament file: "opengotha" for XML,
// "h9" for an EGD report.
func DetectFormat(data []byte) (string, error) {
	head := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	switch {
	case bytes.HasPrefix(head, []byte("<")):
		return "opengotha", nil
	case bytes.HasPrefix(head, []byte(";")) || len(head) > 0:
		return "h9", nil
	}
	return "", &FormatError{"", 1, "the file is empty"}
}

// Import reads a tournament file in the given format ("" to detect it).
func Import(data []byte, format string) (*Imported, error) {
	if format == "" {
		f, err := DetectFormat(data)
		if err != nil {
			return nil, err
		}
		format = f
	}
	switch format {
	case "h9":
		return ParseH9(data)
	case "opengotha":
		return ParseOpenGotha(data)
	}
	return nil, fmt.Errorf("format %q: want h9 or opengotha", format)
}
