package tournaments

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

var placeholders = regexp.MustCompile(`\{[a-z_]+\}`)

// TestFileRefusalsAreCoded feeds files of each kind the readers refuse and
// checks the refusal of the upload: its reason, the line where the reading
// stopped, its parameters (the facts, and the values the file gave), and a
// Chinese message with no English but what the file says. Every reason of
// file_reasons.go must have a case here.
func TestFileRefusalsAreCoded(t *testing.T) {
	og := func(body string) string { return "<Tournament>\n<Players>\n" + body + "</Games></Tournament>" }
	two := `<Player name="王" firstName="一"/>` + "\n" + `<Player name="李" firstName="二"/>` + "\n</Players><Games>\n"
	pg := func(games string) string {
		return "{\"players\": [\n{\"id\": 1, \"name\": \"王\", \"rank\": 0},\n{\"id\": 2, \"name\": \"李\", \"rank\": 0}],\n\"games\": [[\n" + games + "\n]]}"
	}
	var many strings.Builder // a pairgoth file of 1012 players and 99 full rounds
	many.WriteString(`{"players": [`)
	for i := 1; i <= 1012; i++ {
		fmt.Fprintf(&many, "%s{\"id\": %d, \"name\": \"P%d\", \"rank\": 0}", map[bool]string{true: "", false: ","}[i == 1], i, i)
	}
	many.WriteString("],\n\"games\": [")
	for r := 1; r <= maxRounds; r++ {
		if r > 1 {
			many.WriteString(",")
		}
		many.WriteString("[")
		for j := 0; j < 506; j++ {
			fmt.Fprintf(&many, "%s{\"id\": %d, \"t\": %d, \"w\": %d, \"b\": %d, \"r\": \"b\"}", map[bool]string{true: "", false: ","}[j == 0], j+1, j+1, 2*j+1, 2*j+2)
		}
		many.WriteString("]")
	}
	many.WriteString("]}")
	var players strings.Builder
	players.WriteString("; EV[x]\n")
	for i := 1; i <= MaxImportPlayers+2; i++ {
		fmt.Fprintf(&players, "%d. P%d Q 5k CN Bj %d+/w0\n", i, i, i+1-2*(1-i%2))
	}
	read := func(data, format, enc string) func() error {
		return func() error {
			_, err := Read([]byte(data), ReadOptions{Format: format, Encoding: enc})
			return err
		}
	}
	tests := []struct {
		want   *ledger.Reason
		err    func() error
		line   int
		params map[string]string
	}{
		{ReasonUnreadableFile, func() error { return fileRefusal(errors.New("standings: game names entrant 9")) }, 0, nil},
		{ReasonFileEmpty, read(" \n", "", ""), 1, nil},
		{ReasonFileTooLarge, read(strings.Repeat(" ", MaxImportBytes+1), "", ""), 0,
			map[string]string{"bytes": fmt.Sprint(MaxImportBytes + 1), "max": fmt.Sprint(MaxImportBytes)}},
		{ReasonFileTooManyPlayers, read(players.String(), "", ""), 0,
			map[string]string{"players": fmt.Sprint(MaxImportPlayers + 2), "max": fmt.Sprint(MaxImportPlayers)}},
		{ReasonFileTooManyGames, read(many.String(), "", ""), 0,
			map[string]string{"games": fmt.Sprint(506 * maxRounds), "max": fmt.Sprint(MaxImportGames)}},
		{ReasonFileFormat, read("x", "egd", ""), 1, map[string]string{"format": "egd"}},
		{ReasonFileEncoding, read(" 1 No\xebl R\xe9my 2K FR 2+/w0\n", "h9", "utf-8"), 1, map[string]string{"encoding": "UTF-8"}},
		{ReasonFileEncodingUnknown, read(" 1 A B 2K\n", "h9", "klingon"), 1, map[string]string{"encoding": "klingon"}},
		{ReasonFileEncodingUnknown, read("<?xml version=\"1.0\" encoding=\"klingon\"?>\n<Tournament/>", "", ""), 1, map[string]string{"encoding": "klingon"}},
		{ReasonFileSyntax, read("<Tournament>\n<Players>\n<Player name=\"a\"\n", "", ""), 4, map[string]string{"line": "4"}},
		{ReasonFileSyntax, read("{\n\"name\": \"x\",\n\"players\": [\n{\"id\": 1,,}\n]}", "", ""), 4, map[string]string{"line": "4"}},
		{ReasonFileValueType, read("{\n\"players\": [\n{\"id\": 1, \"name\": \"王\", \"rank\": \"3d\"}]}", "", ""), 3,
			map[string]string{"line": "3", "field": "players.rank"}},
		{ReasonFilePinWithoutPlayer, read("; EV[x]\n\n |12345678\n", "", ""), 3, map[string]string{"line": "3"}},
		{ReasonFileNoPlayers, read("; EV[x]\n; nothing\n", "", ""), 2, map[string]string{"line": "2"}},
		{ReasonFileNoRank, read("; EV[x]\n 1 Doe John FR Club 0 2+/b0\n", "", ""), 2, map[string]string{"line": "2", "column": "4"}},
		{ReasonFileOpponentRange, read(" 1 王 一 2D CN 北京 9+/b0\n", "", ""), 1,
			map[string]string{"line": "1", "round": "1", "column": "17", "cell": "9+/b0", "opponent": "9", "players": "1"}},
		{ReasonFileOpponentMismatch, read(" 1 A B 2D 2+/b0\n 2 C D 2D 3+/b0\n 3 E F 2D 1-/w0\n", "", ""), 1,
			map[string]string{"line": "1", "round": "1", "column": "11", "cell": "2+/b0", "opponent": "2", "other": "3"}},
		{ReasonFileNotATournament, read("<?xml version=\"1.0\"?>\n<!-- 空 -->\n", "", ""), 1, nil},
		{ReasonFileNotOpenGotha, read("<Gotha/>", "", ""), 1, map[string]string{"line": "1", "root": "Gotha", "reader": "OpenGotha"}},
		{ReasonFileOtherProgram, read("<?xml version=\"1.0\"?>\n<Tournament application=\"MacMahon\" version=\"3.10\"/>", "", ""), 2,
			map[string]string{"line": "2", "root": "Tournament", "reader": "OpenGotha", "program": "MacMahon", "version": "3.10"}},
		{ReasonFileNoGames, read(og(two), "", ""), 1, map[string]string{"players": "2"}},
		{ReasonFilePlayerNoName, read(og(`<Player firstName="一"/>`+"\n</Players><Games>\n"), "", ""), 3, map[string]string{"line": "3"}},
		{ReasonFilePlayerTwice, read(og(`<Player name="王" firstName="一"/>`+"\n"+`<Player name="王" firstName="一"/>`+"\n</Players><Games>\n"), "", ""), 4,
			map[string]string{"line": "4", "name": "王 一"}},
		{ReasonFilePlayerID, read("{\"players\": [\n{\"id\": 0, \"name\": \"王\"}]}", "", ""), 2, map[string]string{"line": "2", "id": "0"}},
		{ReasonFilePlayerIDTwice, read("{\"players\": [\n{\"id\": 3, \"name\": \"王\"},\n{\"id\": 3, \"name\": \"李\"}]}", "", ""), 2,
			map[string]string{"line": "2", "id": "3"}},
		{ReasonFileGameRound, read(og(two+`<Game blackPlayer="王一" whitePlayer="李二" result="RESULT_BLACKWINS"/>`), "", ""), 6,
			map[string]string{"line": "6", "max": "99"}},
		{ReasonFileGamePlayers, read(og(two+`<Game blackPlayer="王一" whitePlayer="张三" roundNumber="2" result="RESULT_BLACKWINS"/>`), "", ""), 6,
			map[string]string{"line": "6", "round": "2", "black": "王一", "white": "张三"}},
		{ReasonFileGamePlayers, read(pg(`{"id": 7, "t": 1, "w": 1, "b": 5, "r": "b"}`), "", ""), 5,
			map[string]string{"line": "5", "round": "1", "black": "5", "white": "1"}},
		{ReasonFileResult, read(og(two+`<Game blackPlayer="王一" whitePlayer="李二" roundNumber="1" result="平局"/>`), "", ""), 6,
			map[string]string{"line": "6", "round": "1", "result": "平局"}},
		{ReasonFileResult, read(pg(`{"id": 7, "t": 1, "w": 1, "b": 2, "r": "和"}`), "", ""), 5,
			map[string]string{"line": "5", "round": "1", "result": "和"}},
		{ReasonFileBye, read(og(two+`<ByePlayer player="张三" roundNumber="1"/>`), "", ""), 6,
			map[string]string{"line": "6", "round": "1", "player": "张三"}},
		{ReasonFileBye, read(pg(`{"id": 7, "t": 1, "w": 0, "b": 9, "r": "b"}`), "", ""), 5,
			map[string]string{"line": "5", "round": "1", "player": "9"}},
		{ReasonFileTeamEvent, read("{\"name\": \"x\",\n\"type\": \"TEAM2\"}", "", ""), 2, map[string]string{"line": "2", "type": "TEAM2"}},
		{ReasonFileRounds, read("{\"players\": [],\n\"games\": ["+strings.Repeat("[],", maxRounds)+"[]]}", "", ""), 2,
			map[string]string{"line": "2", "rounds": "100", "max": "99"}},
		{ReasonFilePlaysTwice, read(pg(`{"id": 1, "t": 1, "w": 1, "b": 2, "r": "b"},`+"\n"+`{"id": 2, "t": 2, "w": 2, "b": 1, "r": "w"}`), "", ""), 6,
			map[string]string{"line": "6", "round": "1", "name": "王"}},
	}
	tested := map[string]bool{}
	for _, tt := range tests {
		code := tt.want.Code()
		tested[code] = true
		err := tt.err()
		var fe *FormatError
		if errors.As(err, &fe) && fe.Line != tt.line {
			t.Errorf("%s: stopped at line %d, want %d", code, fe.Line, tt.line)
		}
		e := fileRefusal(err)
		if e.Reason != tt.want || e.Field != "file" {
			t.Errorf("%s: got %v", code, err)
			continue
		}
		if len(e.Params) != len(tt.params) {
			t.Errorf("%s: parameters %v, want %v", code, e.Params, tt.params)
		}
		for name, v := range tt.params {
			if got := e.Param(name); got != v {
				t.Errorf("%s: %s = %q, want %q", code, name, got, v)
			}
		}
		// the Chinese has no English of its own: none in the template, none
		// in the message once the values the file gave are taken out
		if w := latin.FindString(placeholders.ReplaceAllString(tt.want.Template(ledger.Chinese), "")); w != "" {
			t.Errorf("%s: the Chinese template has %q", code, w)
		}
		zh := e.Message(ledger.Chinese)
		values := make([]string, 0, len(e.Params))
		for _, p := range e.Params {
			values = append(values, p.Value)
		}
		slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) }) // TEAM2 before 2
		for _, v := range values {
			zh = strings.ReplaceAll(zh, v, "")
		}
		if latin.MatchString(zh) {
			t.Errorf("%s: the Chinese message has Latin words: %s", code, e.Message(ledger.Chinese))
		}
	}
	for _, code := range declaredCodes(t, "file_reasons.go") {
		if !tested[code] {
			t.Errorf("%s has no case here", code)
		}
	}
}
