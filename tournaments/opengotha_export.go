package tournaments

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dankyu/dankyu/registry"
)

// ogMaxRounds is the rounds OpenGotha keeps (its participating string).
const ogMaxRounds = 20

// ogResultNames are OpenGotha's names of our results (black's view);
// a forfeit is OpenGotha's win by default.
var ogResultNames = map[Result]string{
	NoResult: "RESULT_UNKNOWN", BlackWins: "RESULT_BLACKWINS", WhiteWins: "RESULT_WHITEWINS", Draw: "RESULT_EQUAL",
	BothWin: "RESULT_BOTHWIN", BothLose: "RESULT_BOTHLOSE", BlackForfeit: "RESULT_BLACKWINS_BYDEF", WhiteForfeit: "RESULT_WHITEWINS_BYDEF",
	// issue 26's results as OpenGotha can say them: a loss on time is a
	// loss on the board, lateness a default, a replay or final no-result
	// unknown, a draw by rule a draw
	BlackTimeLoss: "RESULT_WHITEWINS", WhiteTimeLoss: "RESULT_BLACKWINS", BlackLate: "RESULT_WHITEWINS_BYDEF",
	WhiteLate: "RESULT_BLACKWINS_BYDEF", BothLate: "RESULT_BOTHLOSE_BYDEF", Replayed: "RESULT_UNKNOWN", FinalNoResult: "RESULT_UNKNOWN",
	RuleDraw: "RESULT_EQUAL",
}

// ogNames splits a registered name into OpenGotha's name and first name,
// both required there: "Surname Given" at the first space; a Chinese name
// written together (张三) as surname and given name by its first character.
func ogNames(full string) (name, first string) {
	// _ is read back as a space (OpenGotha writes spaces inside a name so),
	// so it is written as one: a name of underscores alone is no name
	full = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '_' {
			return ' '
		}
		return r
	}, full)), " ")
	if s, g, ok := strings.Cut(full, " "); ok {
		return s, g
	}
	if utf8.RuneCountInString(full) >= 2 {
		_, n := utf8.DecodeRuneInString(full)
		return full[:n], full[n:]
	}
	if full == "" {
		full = "?"
	}
	return full, "-"
}

// ogRank writes a rank as OpenGotha does: 30K to 9D.
func ogRank(r registry.Rank) string {
	switch {
	case r < -30:
		return "30K"
	case r > 9:
		return "9D"
	}
	return egdRank(r)
}

// WriteOpenGotha writes the event as an OpenGotha tournament file (XML,
// the layout of OpenGotha 3.5x, data version 201), so that an organiser
// can continue it in OpenGotha: players with their keys, every game with
// its table and result, every bye, and the general parameters. OpenGotha
// keeps one bye a round and 20 rounds; the file carries every bye and
// round all the same (this registry's importer reads them all back).
func WriteOpenGotha(w io.Writer, r Report) error {
	bw := bufio.NewWriter(w)
	e := r.Event
	rounds := max(e.Rounds, len(r.Rounds))
	type ogPlayer struct{ name, first, key string }
	players := map[int]ogPlayer{}
	keys := map[string]int{}
	for _, p := range r.Participants {
		name, first := ogNames(p.Name)
		key := ogKey(name + first)
		// OpenGotha finds players by key: namesakes are told apart as its users do ("Tianyi #2")
		for n := 2; keys[key] > 0; n++ {
			name, first = ogNames(p.Name)
			first = fmt.Sprintf("%s #%d", first, n)
			key = ogKey(name + first)
		}
		keys[key] = p.Number
		players[p.Number] = ogPlayer{name, first, key}
	}
	active := map[[2]int]bool{}
	byeValue := 0
	for _, rd := range r.Rounds {
		for _, g := range rd.Games {
			active[[2]int{rd.Round, g.Black}], active[[2]int{rd.Round, g.White}] = true, true
		}
		for _, b := range roundByes(rd) {
			active[[2]int{rd.Round, b.Player}] = true
			byeValue = max(byeValue, b.Points)
		}
	}
	if byeValue == 0 {
		byeValue = WinPoints
	}
	fmt.Fprintf(bw, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	fmt.Fprintf(bw, "<Tournament dataVersion=\"201\" fullVersionNumber=\"3.52\" runningMode=\"SAL\" saveDT=\"%s\">\n", e.End.Format("20060102")+"000000")
	fmt.Fprintf(bw, "<Players>\n")
	for _, p := range r.Participants {
		op := players[p.Number]
		var part strings.Builder
		for round := 1; round <= max(ogMaxRounds, rounds); round++ {
			// a round he neither played nor had a bye in is one he did not take part in
			if round <= len(r.Rounds) && !active[[2]int{round, p.Number}] {
				part.WriteByte('0')
			} else {
				part.WriteByte('1')
			}
		}
		country := strings.ToUpper(p.Country)
		if len(country) != 2 || !isLetters(country) {
			country = ""
		}
		rank := ogRank(p.Rank)
		fmt.Fprintf(bw, "<Player agaExpirationDate=\"\" agaId=\"\" club=\"\" country=%s egfPin=%s ffgLicence=\"\" ffgLicenceStatus=\"\" firstName=%s grade=%s name=%s participating=\"%s\" rank=%s rating=\"%d\" ratingOrigin=\"\" registeringStatus=\"FIN\" smmsCorrection=\"0\"/>\n",
			xmlAttr(country), xmlAttr(p.EGDPin), xmlAttr(op.first), xmlAttr(rank), xmlAttr(op.name), part.String(), xmlAttr(rank), ogRating(p.Rank))
	}
	fmt.Fprintf(bw, "</Players>\n<Games>\n")
	for _, rd := range r.Rounds {
		for i, g := range rd.Games {
			table := g.Board
			if table < 1 {
				table = i + 1
			}
			fmt.Fprintf(bw, "<Game blackPlayer=%s handicap=\"%d\" knownColor=\"true\" result=\"%s\" roundNumber=\"%d\" tableNumber=\"%d\" whitePlayer=%s/>\n",
				xmlAttr(players[g.Black].key), g.Handicap, ogResultNames[g.Result], rd.Round, table, xmlAttr(players[g.White].key))
		}
	}
	fmt.Fprintf(bw, "</Games>\n")
	var byeLines []string
	for _, rd := range r.Rounds {
		for _, b := range roundByes(rd) {
			if b.Points > 0 {
				byeLines = append(byeLines, fmt.Sprintf("<ByePlayer player=%s roundNumber=\"%d\"/>\n", xmlAttr(players[b.Player].key), rd.Round))
			}
		}
	}
	if len(byeLines) > 0 {
		fmt.Fprintf(bw, "<ByePlayers>\n%s</ByePlayers>\n", strings.Join(byeLines, ""))
	}
	placement := `<PlacementCriterion name="NBW" number="1"/><PlacementCriterion name="SOSW" number="2"/><PlacementCriterion name="SOSOSW" number="3"/>`
	if e.System == McMahonSystem {
		placement = `<PlacementCriterion name="MMS" number="1"/><PlacementCriterion name="SOSM" number="2"/><PlacementCriterion name="SOSOSM" number="3"/>`
	}
	fmt.Fprintf(bw, "<TournamentParameterSet>\n")
	fmt.Fprintf(bw, "<GeneralParameterSet bInternet=\"false\" basicTime=\"60\" beginDate=\"%s\" complementaryTimeSystem=\"STDBYOYOMI\" director=\"\" endDate=\"%s\" genCountNotPlayedGamesAsHalfPoint=\"false\" genMMBar=\"9D\" genMMFloor=\"30K\" genMMS2ValueAbsent=\"1\" genMMS2ValueBye=\"%d\" genMMZero=\"30K\" genNBW2ValueAbsent=\"0\" genNBW2ValueBye=\"%d\" genRoundDownNBWMMS=\"true\" komi=\"%s\" location=%s name=%s numberOfCategories=\"1\" numberOfRounds=\"%d\" shortName=%s size=\"19\" stdByoYomiTime=\"30\"/>\n",
		e.Start.Format(time.DateOnly), e.End.Format(time.DateOnly), byeValue, byeValue, strconv.FormatFloat(e.Komi, 'f', -1, 64),
		xmlAttr(e.Venue), xmlAttr(e.Name), min(max(rounds, 1), ogMaxRounds), xmlAttr(fmt.Sprintf("dankyu-%d", e.ID)))
	fmt.Fprintf(bw, "<HandicapParameterSet hdBasedOnMMS=\"true\" hdCeiling=\"9\" hdCorrection=\"1\" hdNoHdRankThreshold=\"1D\"/>\n")
	fmt.Fprintf(bw, "<PlacementParameterSet>\n<PlacementCriteria>%s</PlacementCriteria>\n</PlacementParameterSet>\n", placement)
	fmt.Fprintf(bw, "<PairingParameterSet paiBaAvoidDuplGame=\"500000000000000\" paiBaBalanceWB=\"1000000\" paiBaDeterministic=\"true\" paiBaRandom=\"0\"/>\n")
	fmt.Fprintf(bw, "</TournamentParameterSet>\n</Tournament>\n")
	return bw.Flush()
}

// roundByes is every bye of a round, the paired one first.
func roundByes(rd RoundInfo) []Bye {
	var out []Bye
	if rd.Bye != 0 {
		out = append(out, Bye{Round: rd.Round, Player: rd.Bye, Points: rd.ByePoints})
	}
	return append(out, rd.MoreByes...)
}

// ogRating is the rating OpenGotha gives a rank when it knows none (its
// scale: 2100 for 1 dan, 100 a grade).
func ogRating(r registry.Rank) int {
	switch {
	case r > 0:
		return 2000 + 100*int(r)
	case r < 0:
		return 2100 + 100*int(r)
	}
	return -900
}

// xmlAttr is a quoted attribute value: escaped, and without the control
// characters XML 1.0 does not allow.
func xmlAttr(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	_ = xml.EscapeText(&b, []byte(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)))
	b.WriteByte('"')
	return b.String()
}
