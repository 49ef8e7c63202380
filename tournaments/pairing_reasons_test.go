package tournaments

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/dankyu/dankyu/ledger"
)

// latin finds a Latin word in a message: a Chinese page shows none, since
// every parameter in these cases is a number or a Chinese name.
var latin = regexp.MustCompile(`[A-Za-z]{2,}`)

// players enters n individual participants numbered 1..n.
func players(n int) []Participant {
	ps := make([]Participant, n)
	for i := range ps {
		ps[i] = Participant{Number: i + 1, Name: "棋手" + strconv.Itoa(i+1)}
	}
	return ps
}

// won is a decided game of round r on board 1, black beating white.
func won(r, black, white int) GameRow {
	return GameRow{Game: Game{Round: r, Board: 1, Black: black, White: white, Result: BlackWins}}
}

func played(r, black, white int, res Result) GameRow {
	return GameRow{Game: Game{Round: r, Board: 1, Black: black, White: white, Result: res}}
}

// TestPairingRefusalsAreCoded drives every refusal of pairing and of a
// lineup through the code that makes it and checks that it is coded (its
// reason, not an English sentence in a parameter) and that its Chinese
// message holds no Latin word. Every reason of pairing_reasons.go must have
// a case here.
func TestPairingRefusalsAreCoded(t *testing.T) {
	arena := func(ps ...Participant) []Participant { return ps }
	two := arena(
		Participant{Number: 1, Team: "北京", Board: 1}, Participant{Number: 2, Team: "北京", Board: 2},
		Participant{Number: 3, Team: "上海", Board: 1}, Participant{Number: 4, Team: "上海", Board: 2})
	arenaEvent := Event{System: ArenaSystem, Team: true}
	teams := func(system System, ps ...Participant) error {
		_, _, err := teamRound(Event{System: system, Team: true, Rounds: 3}, ps, nil, nil, 1, 1, nil)
		return err
	}
	members := map[int]TeamMember{1: {"北京", 1}, 2: {"北京", 2}, 3: {"上海", 1}, 4: {"上海", 2}}
	lineupPs := []Participant{
		{Number: 1, Team: "甲", Board: 1}, {Number: 2, Team: "甲", Board: 2}, {Number: 3, Team: "甲", Board: 3, Reserve: true},
		{Number: 4, Team: "乙", Board: 1}, {Number: 5, Team: "乙", Board: 2, Withdrawn: true, WithdrewAfter: 1},
		{Number: 6, Team: "乙", Board: 3, Reserve: true},
	}
	lineup := func(team string, numbers ...int) error {
		return checkLineup(Event{TeamFormat: FreeLineup}, lineupPs, LineupInput{Team: team, Numbers: numbers})
	}
	tests := []struct {
		want *ledger.Reason
		err  func() error
	}{
		{ReasonRoundRobinSize, func() error { _, err := RoundRobin(1, false); return err }},
		{ReasonScheduleComplete, func() error {
			_, _, err := roundRobinRound(Event{System: RoundRobinSystem}, players(4), 4)
			return err
		}},
		{ReasonNoPairing, func() error {
			_, err := PairSwiss([]SwissPlayer{{ID: 1, Met: map[int]bool{2: true}}, {ID: 2, Met: map[int]bool{1: true}}}, 1)
			return err
		}},
		{ReasonKnockoutSize, func() error { _, err := KnockoutBracket(1); return err }},
		{ReasonKnockoutWinners, func() error { _, err := NextKnockoutRound([]int{1, 2, 3}); return err }},
		{ReasonKnockoutDecided, func() error { _, err := knockoutRound(players(2), []GameRow{won(1, 1, 2)}, 2); return err }},
		{ReasonTeamKnockoutDecided, func() error {
			_, err := teamKnockout([]string{"北京", "上海"}, map[string]int{}, members, []GameRow{won(1, 1, 3)}, 2)
			return err
		}},
		{ReasonNeedsWinner, func() error { _, err := winnerOf([]GameRow{played(1, 1, 2, Draw)}, 1, Pair{1, 2}); return err }},
		{ReasonNoGameBetween, func() error { _, err := winnerOf(nil, 1, Pair{1, 2}); return err }},
		{ReasonEliminationEmpty, func() error {
			_, _, err := EliminationRound([]ElimPlayer{{ID: 1, Losses: 2}, {ID: 2, Losses: 2}}, 2, 1)
			return err
		}},
		{ReasonEliminationWon, func() error {
			_, err := eliminationRound(players(2), []GameRow{won(1, 1, 2)}, nil, 1, 1)
			return err
		}},
		{ReasonSwissEliminationOver, func() error {
			_, err := swissEliminationRound(Event{System: SwissEliminationSystem, Lives: 1}, players(2), []GameRow{won(1, 1, 2)}, nil, 1)
			return err
		}},
		{ReasonMatchPlayers, func() error { _, err := matchRound(Event{BestOf: 3}, players(3), nil, 1); return err }},
		{ReasonMatchDecided, func() error {
			_, err := matchRound(Event{BestOf: 3}, players(2), []GameRow{won(1, 1, 2), won(2, 1, 2)}, 3)
			return err
		}},
		{ReasonMatchLevel, func() error {
			_, err := matchRound(Event{BestOf: 3}, players(2), []GameRow{won(1, 1, 2), won(2, 2, 1), played(3, 1, 2, Draw)}, 4)
			return err
		}},
		{ReasonArenaPlace, func() error {
			_, err := arenaRound(arenaEvent, arena(Participant{Number: 1, Name: "王小明"}), nil)
			return err
		}},
		{ReasonArenaTeamCount, func() error { _, err := arenaRound(arenaEvent, two[:2], nil); return err }},
		{ReasonArenaTeamSizes, func() error { _, err := arenaRound(arenaEvent, two[:3], nil); return err }},
		{ReasonArenaPlaceEmpty, func() error {
			_, err := arenaRound(arenaEvent, arena(two[0], Participant{Number: 2, Team: "北京", Board: 3}, two[2], two[3]), nil)
			return err
		}},
		{ReasonArenaGameAfterEnd, func() error {
			_, err := arenaRound(arenaEvent, two, []GameRow{won(1, 1, 3), won(2, 1, 4), won(3, 1, 4)})
			return err
		}},
		{ReasonArenaWrongPlayers, func() error { _, err := arenaRound(arenaEvent, two, []GameRow{won(1, 2, 4)}); return err }},
		{ReasonArenaBothWon, func() error { _, err := arenaRound(arenaEvent, two, []GameRow{played(1, 1, 3, BothWin)}); return err }},
		{ReasonArenaLevel, func() error {
			_, err := arenaRound(arenaEvent, two, []GameRow{played(1, 1, 3, Draw), played(2, 2, 4, Draw)})
			return err
		}},
		{ReasonArenaDecided, func() error { _, err := arenaRound(arenaEvent, two, []GameRow{won(1, 1, 3), won(2, 1, 4)}); return err }},
		{ReasonTeamBoardMissing, func() error { return teams(RoundRobinSystem, Participant{Number: 1, Name: "王小明"}) }},
		{ReasonTeamBoardTwice, func() error { return teams(RoundRobinSystem, two[0], Participant{Number: 2, Team: "北京", Board: 1}) }},
		{ReasonTeamCount, func() error { return teams(RoundRobinSystem, two[:2]...) }},
		{ReasonTeamBoards, func() error { return teams(RoundRobinSystem, two[:3]...) }},
		{ReasonTeamBoardEmpty, func() error {
			return teams(RoundRobinSystem, two[0], Participant{Number: 2, Team: "北京", Board: 3}, two[2], Participant{Number: 4, Team: "上海", Board: 3})
		}},
		{ReasonTeamSystem, func() error { return teams(DoubleKnockoutSystem, two...) }},
		{ReasonTeamMatchLevel, func() error {
			_, err := matchWinner([]string{"北京", "上海"}, members, []GameRow{played(1, 1, 3, Draw)}, 1, Pair{1, 2})
			return err
		}},
		{ReasonGameWithoutTeam, func() error {
			_, err := TeamStandings(members, []Game{won(1, 1, 9).Game}, nil)
			return err
		}},
		{ReasonGameSameTeam, func() error {
			_, err := TeamStandings(members, []Game{won(1, 1, 2).Game}, nil)
			return err
		}},
		{ReasonLineupNoTeam, func() error { return lineup("丙", 1, 2) }},
		{ReasonLineupSize, func() error { return lineup("甲", 1) }},
		{ReasonLineupNotMember, func() error { return lineup("甲", 1, 4) }},
		{ReasonLineupTwice, func() error { return lineup("甲", 1, 1) }},
		{ReasonLineupWithdrawn, func() error { return lineup("乙", 4, 5) }},
	}
	tested := map[string]bool{}
	for _, tt := range tests {
		code := tt.want.Code()
		tested[code] = true
		err := tt.err()
		var e *ledger.Error
		if !errors.As(err, &e) || e.Reason != tt.want {
			t.Errorf("%s: got %v", code, err)
			continue
		}
		if zh := e.Message(ledger.Chinese); latin.MatchString(zh) {
			t.Errorf("%s: the Chinese message has Latin words: %s", code, zh)
		}
		// the English is English but for the names it quotes
		en := e.Message(ledger.English)
		for _, p := range e.Params {
			en = strings.ReplaceAll(en, p.Value, "")
		}
		if strings.ContainsFunc(en, func(r rune) bool { return unicode.Is(unicode.Han, r) }) {
			t.Errorf("%s: the English message has Chinese words: %s", code, e.Message(ledger.English))
		}
	}
	for _, code := range declaredCodes(t, "pairing_reasons.go") {
		if !tested[code] {
			t.Errorf("%s has no case here", code)
		}
	}
}

// TestTeamSystemNamedInChinese: a system in a Chinese refusal is its
// Chinese name; gRPC clients get the identifier.
func TestTeamSystemNamedInChinese(t *testing.T) {
	_, _, err := teamRound(Event{System: MultiEliminationSystem, Team: true}, []Participant{
		{Number: 1, Team: "北京", Board: 1}, {Number: 2, Team: "上海", Board: 1}}, nil, nil, 1, 1, nil)
	e, ok := ledger.AsError(err)
	if !ok || e.Message(ledger.Chinese) != "团体赛按循环、积分编排、麦克马洪或淘汰编排，不按多败淘汰。" || e.Param("system") != "multi_elimination" {
		t.Fatalf("%v", err)
	}
}

// declaredCodes reads the codes a file of this package declares.
func declaredCodes(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewReason" && len(call.Args) == 4 {
				if lit, ok := call.Args[1].(*ast.BasicLit); ok {
					code, _ := strconv.Unquote(lit.Value)
					codes = append(codes, code)
				}
			}
		}
		return true
	})
	if len(codes) == 0 {
		t.Fatalf("%s declares %d codes", file, len(codes))
	}
	return codes
}
