package tournaments

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/dankyu/dankyu/ledger"
)

// What a person must look at before a file is imported: each a code with
// its facts (the line, the player, the round), worded in Chinese and
// English, listed in the dry run's warnings. The file is still read.
var (
	WarnPlaceholderName = ledger.NewReason(ledger.Invalid, "IMPORT_PLACEHOLDER_NAME",
		"第 {line} 行：第 {player} 名棋手“{name}”的名字像是用来给轮空的占位棋手。确认为轮空后，他的 {games} 局不计等级分，他不列入名次，对手各得一次轮空。",
		"line {line}: player {player} “{name}” is named like a placeholder used to give byes. Confirmed as a bye, his {games} games are not rated, he is not ranked, and each opponent gets a bye instead.")
	WarnPlaceholderPlay = ledger.NewReason(ledger.Invalid, "IMPORT_PLACEHOLDER_PLAY",
		"第 {line} 行：第 {player} 名棋手“{name}”一局未下，{games} 局全部判负、对手不战而胜，像是用来给轮空的占位棋手。确认为轮空后，他不列入名次，对手各得一次轮空。",
		"line {line}: player {player} “{name}” never played: he lost all {games} of his games by default, as a placeholder used to give byes does. Confirmed as a bye, he is not ranked and each opponent gets a bye instead.")
	WarnDatesReversed = ledger.NewReason(ledger.Invalid, "IMPORT_DATES_REVERSED",
		"第 {line} 行：比赛的结束日期 {end} 早于开始日期 {start}。", "line {line}: the event ends on {end}, before it starts on {start}.")
	WarnDatesLong = ledger.NewReason(ledger.Invalid, "IMPORT_DATES_LONG",
		"第 {line} 行：比赛从 {start} 到 {end}，长达 {days} 天，请核对日期。", "line {line}: the event runs from {start} to {end}, {days} days: check the dates.")
	WarnDateUnreadable = ledger.NewReason(ledger.Invalid, "IMPORT_DATE_UNREADABLE",
		"第 {line} 行：日期“{date}”不是 年-月-日 格式的日期；导入时按导入当天记录。",
		"line {line}: the date “{date}” is not a date like 2024-05-18: the import dates the event by the day of the import.")
	WarnDateFuture = ledger.NewReason(ledger.Invalid, "IMPORT_DATE_FUTURE",
		"第 {line} 行：比赛日期 {date} 在今天（{today}）之后，已赛完的比赛不应如此。", "line {line}: the event's date {date} is after today ({today}), which a finished event's cannot be.")
	WarnAbsentPlayed = ledger.NewReason(ledger.Invalid, "IMPORT_ABSENT_PLAYED",
		"第 {line} 行：第 {round} 轮 {name} 被标为缺席，却有一局（对 {opponent}）。", "line {line}: round {round}: {name} is marked absent but has a game (against {opponent}).")
	WarnBothLostByDefault = ledger.NewReason(ledger.Invalid, "IMPORT_BOTH_LOST_BY_DEFAULT",
		"第 {line} 行：第 {round} 轮 {black} 与 {white} 双方均判负：这局没有下，不计等级分，双方都不得分。",
		"line {line}: round {round}: {black} and {white} both lost by default: the game was not played, is not rated and scores for neither.")
	WarnPlaysTwice = ledger.NewReason(ledger.Invalid, "IMPORT_PLAYS_TWICE",
		"第 {line} 行：第 {round} 轮 {name} 有 {games} 局（对 {opponents}），每轮只应有一局。",
		"line {line}: round {round}: {name} is in {games} games (against {opponents}); a round has one game a player.")
	ReasonByePlayer = ledger.NewReason(ledger.Invalid, "IMPORT_BYE_PLAYER",
		"文件中没有第 {player} 名棋手，无法确认为轮空占位。", "there is no player {player} in the file to confirm as a bye placeholder.")
)

// note adds a coded warning at a line (at least 1: a warning points inside the file).
func (t *Imported) note(line, player int, r *ledger.Reason, params ...string) {
	line = max(line, 1)
	ps := []ledger.Param{ledger.Value("line", strconv.Itoa(line))}
	m := map[string]string{"line": strconv.Itoa(line)}
	for i := 0; i+1 < len(params); i += 2 {
		v := clip(params[i+1])
		ps = append(ps, ledger.Value(params[i], v))
		m[params[i]] = v
	}
	e := &ledger.Error{Reason: r, Params: ps}
	// Msg, the English, keeps the line apart as String() adds it
	en := strings.TrimPrefix(e.Message(ledger.English), "line "+strconv.Itoa(line)+": ")
	t.Warnings = append(t.Warnings, Warning{Line: line, Msg: en, Code: r.Code(), Params: m, MsgZH: e.Message(ledger.Chinese), Player: player})
}

// placeholderNames are the names organisers give a player who stands for a
// bye, folded (lower case, letters only); a number after one (Bye 2) is allowed.
var placeholderNames = map[string]bool{
	"bye": true, "byes": true, "byeplayer": true, "free": true, "freeround": true, "frei": true, "spielfrei": true,
	"libre": true, "exempt": true, "exempté": true, "dummy": true, "nobody": true, "ghost": true, "placeholder": true,
	"vacant": true, "pass": true, "none": true, "轮空": true, "輪空": true, "轮休": true, "輪休": true, "轮空者": true,
	"轮空选手": true, "輪空選手": true, "空": true, "空位": true, "假人": true, "虚拟": true, "虚拟棋手": true, "免赛": true, "不战": true,
	"fusen": true, "不戦": true, "부전": true,
}

func placeholderName(p ImportedPlayer) bool {
	var b strings.Builder
	for _, r := range strings.ToLower(p.Surname + p.Given) {
		if unicode.IsLetter(r) {
			b.WriteRune(r)
		}
	}
	return b.Len() > 0 && placeholderNames[b.String()]
}

// check lists what a person must look at in a file read (see the reasons above).
func (t *Imported) check() {
	games := make([][]ImportedGame, len(t.Players)+1)
	for _, g := range t.Games {
		games[g.Black] = append(games[g.Black], g)
		games[g.White] = append(games[g.White], g)
	}
	byes := map[int]bool{}
	for _, b := range t.Byes {
		byes[b.Player] = true
	}
	for _, p := range t.Players {
		gs := games[p.ID]
		switch {
		case placeholderName(p):
			t.note(p.Line, p.ID, WarnPlaceholderName, "player", strconv.Itoa(p.ID), "name", p.Name(), "games", strconv.Itoa(len(gs)))
		case len(gs) >= 2 && !byes[p.ID] && allLostByDefault(p.ID, gs):
			t.note(p.Line, p.ID, WarnPlaceholderPlay, "player", strconv.Itoa(p.ID), "name", p.Name(), "games", strconv.Itoa(len(gs)))
		}
	}
	t.checkDates()
	name := func(id int) string { return t.Players[id-1].Name() }
	at := func(g ImportedGame, p int) int {
		if g.Line > 0 {
			return g.Line
		}
		return t.Players[p-1].Line
	}
	for _, g := range t.Games {
		for _, side := range [][2]int{{g.Black, g.White}, {g.White, g.Black}} {
			if slices.Contains(t.Players[side[0]-1].Absent, g.Round) {
				t.note(at(g, side[0]), side[0], WarnAbsentPlayed, "round", strconv.Itoa(g.Round), "name", name(side[0]), "opponent", name(side[1]))
			}
		}
		if g.Default && g.Result == BothLose {
			t.note(at(g, g.Black), 0, WarnBothLostByDefault, "round", strconv.Itoa(g.Round), "black", name(g.Black), "white", name(g.White))
		}
	}
	type key struct{ round, player int }
	in := map[key][]ImportedGame{}
	var order []key
	for _, g := range t.Games {
		for _, p := range []int{g.Black, g.White} {
			k := key{g.Round, p}
			if len(in[k]) == 1 {
				order = append(order, k)
			}
			in[k] = append(in[k], g)
		}
	}
	for _, k := range order {
		var opp []string
		for _, g := range in[k] {
			o := g.Black
			if o == k.player {
				o = g.White
			}
			opp = append(opp, name(o))
		}
		t.note(at(in[k][1], k.player), k.player, WarnPlaysTwice, "round", strconv.Itoa(k.round), "name", name(k.player),
			"games", strconv.Itoa(len(in[k])), "opponents", strings.Join(opp, ", "))
	}
}

// allLostByDefault: every game of the player is a win by default for his opponent.
func allLostByDefault(p int, gs []ImportedGame) bool {
	for _, g := range gs {
		if !(g.Black == p && g.Result == WhiteForfeit) && !(g.White == p && g.Result == BlackForfeit) {
			return false
		}
	}
	return true
}

// maxEventDays is the longest an event is taken to run without a warning:
// a league runs through a season, not for years.
const maxEventDays = 400

func (t *Imported) checkDates() {
	line := t.DateLine
	var start, end time.Time
	var okS, okE bool
	for _, d := range []struct {
		s  string
		t  *time.Time
		ok *bool
	}{{t.Start, &start, &okS}, {t.End, &end, &okE}} {
		if strings.TrimSpace(d.s) == "" {
			continue
		}
		v, err := time.Parse(time.DateOnly, strings.TrimSpace(d.s))
		if err != nil {
			t.note(line, 0, WarnDateUnreadable, "date", d.s)
			continue
		}
		*d.t, *d.ok = v, true
	}
	if !okS || !okE {
		return
	}
	switch days := int(end.Sub(start).Hours() / 24); {
	case days < 0:
		t.note(line, 0, WarnDatesReversed, "start", t.Start, "end", t.End)
	case days > maxEventDays:
		t.note(line, 0, WarnDatesLong, "start", t.Start, "end", t.End, "days", strconv.Itoa(days+1))
	}
}

// CheckDate warns of an event dated after today (the caller's clock).
func (t *Imported) CheckDate(today time.Time) {
	day := today.Format(time.DateOnly)
	for _, d := range []string{t.Start, t.End} {
		if v, err := time.Parse(time.DateOnly, strings.TrimSpace(d)); err == nil && v.Format(time.DateOnly) > day {
			t.note(t.DateLine, 0, WarnDateFuture, "date", d, "today", day)
			return
		}
	}
}

// ConfirmByePlayers is the tournament with the file players ids (1..N)
// taken as placeholders standing for byes: their games become byes of
// their opponents (worth what the opponent scored: a win, a draw or
// nothing) and they leave the field, so nothing of theirs is rated or
// ranked. The other players keep their order (renumbered from 1); the
// warnings stay those of the file as read.
func (t *Imported) ConfirmByePlayers(ids []int) (*Imported, error) {
	if len(ids) == 0 {
		return t, nil
	}
	bye := map[int]bool{}
	for _, id := range ids {
		if id < 1 || id > len(t.Players) {
			return nil, ReasonByePlayer.OnField("bye_players", "player", strconv.Itoa(id))
		}
		bye[id] = true
	}
	out := *t
	out.Players, out.Games, out.Byes = nil, nil, nil
	renum := map[int]int{}
	for _, p := range t.Players {
		if !bye[p.ID] {
			renum[p.ID] = len(out.Players) + 1
			p.ID = renum[p.ID]
			out.Players = append(out.Players, p)
		}
	}
	has := map[[2]int]bool{} // round, player: a game or a bye already
	for _, g := range t.Games {
		if !bye[g.Black] && !bye[g.White] {
			g.Black, g.White = renum[g.Black], renum[g.White]
			out.Games = append(out.Games, g)
			has[[2]int{g.Round, g.Black}], has[[2]int{g.Round, g.White}] = true, true
		}
	}
	for _, b := range t.Byes {
		if !bye[b.Player] {
			b.Player = renum[b.Player]
			out.Byes = append(out.Byes, b)
			has[[2]int{b.Round, b.Player}] = true
		}
	}
	for _, g := range t.Games {
		if bye[g.Black] == bye[g.White] {
			continue // no placeholder, or two of them
		}
		p := g.Black
		if bye[p] {
			p = g.White
		}
		k := [2]int{g.Round, renum[p]}
		if has[k] {
			continue // he played a real game (or had a bye) that round: warned as two games
		}
		has[k] = true
		side, _ := g.SideOf(p)
		points := 0
		switch side.Outcome {
		case '+':
			points = WinPoints
		case '=':
			points = DrawPoints
		}
		out.Byes = append(out.Byes, Bye{Round: g.Round, Player: renum[p], Points: points})
	}
	slices.SortStableFunc(out.Byes, func(a, b Bye) int { return a.Round - b.Round })
	out.countRounds()
	return &out, nil
}
