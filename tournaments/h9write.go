package tournaments

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// An EGD tournament report (h9) that the EGD takes: names in Latin
// letters, surname first; the EGD PIN after "|"; a club in every line; and
// the class the EGD gives the event (CL) from its time limits or as the
// organiser states it, never a class nobody stated.

// EGD tournament classes (the EGF's rating rules): A, B and C by time
// limits, D for tournaments played on the Internet.
var egdClasses = []string{"A", "B", "C", "D"}

// TimeControl is an event's time limits as the EGD classes them.
type TimeControl struct {
	BasicMinutes int
	// Overtime is "byoyomi" (Seconds a period), "canadian" (Stones in
	// Seconds), "fischer" (Seconds added a move) or "none" (sudden death).
	Overtime string
	Seconds  int
	Stones   int
	Online   bool
}

// Adjusted is the EGD's adjusted time in minutes: the basic time plus 45
// moves of standard byo-yomi, 60 moves of Canadian, or 120 moves of the
// Fischer bonus.
func (t TimeControl) Adjusted() int {
	switch t.Overtime {
	case "byoyomi":
		return t.BasicMinutes + 45*t.Seconds/60
	case "canadian":
		if t.Stones > 0 {
			return t.BasicMinutes + 60*t.Seconds/t.Stones/60
		}
	case "fischer":
		return t.BasicMinutes + 120*t.Seconds/60
	}
	return t.BasicMinutes
}

// Class is the EGD class the time limits earn: class A needs 60 minutes
// basic and 75 adjusted (45 basic with Fischer timing), B 40 and 50 (30),
// C 25 and 30 (20); an Internet event is class D with B's limits. "" when
// they earn none.
func (t TimeControl) Class() string {
	adj := t.Adjusted()
	basic := func(normal, fischer int) bool {
		if t.Overtime == "fischer" {
			return t.BasicMinutes >= fischer
		}
		return t.BasicMinutes >= normal
	}
	switch {
	case t.Online:
		if basic(40, 30) && adj >= 50 {
			return "D"
		}
	case basic(60, 45) && adj >= 75:
		return "A"
	case basic(40, 30) && adj >= 50:
		return "B"
	case basic(25, 20) && adj >= 30:
		return "C"
	}
	return ""
}

// H9Options are the organiser's statements for an h-file and the
// registered players' records.
type H9Options struct {
	// Class is the EGD class as the organiser states it; "" derives it
	// from Time, and without either the file states none.
	Class string
	Time  *TimeControl
	// EventName is the event's name in Latin letters; "" transliterates it.
	EventName string
	// Players are the registered participants' records (their Latin
	// names, PINs and provinces), by player id; ExportEventWith reads them.
	Players map[int64]registry.Player
}

// check refuses a class the EGD does not have and time limits that are
// not limits.
func (o H9Options) check() error {
	if o.Class != "" && !slicesContains(egdClasses, o.Class) {
		return ReasonEGDClass.OnField("egd_class", "value", clip(o.Class))
	}
	if t := o.Time; t != nil {
		switch {
		case t.BasicMinutes < 0 || t.BasicMinutes > 24*60 || t.Seconds < 0 || t.Seconds > 3600 || t.Stones < 0 || t.Stones > 100:
			return ReasonTimeControl.OnField("basic_minutes", "overtime", t.Overtime)
		case !slicesContains([]string{"byoyomi", "canadian", "fischer", "none"}, t.Overtime):
			return ReasonTimeControl.OnField("overtime", "overtime", clip(t.Overtime))
		case t.Overtime == "canadian" && t.Stones == 0:
			return ReasonTimeControl.OnField("overtime_stones", "overtime", t.Overtime)
		}
	}
	return nil
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// egdRank writes a rank as EGD files do: 2D, 14K.
func egdRank(r registry.Rank) string {
	switch {
	case r < 0:
		return strconv.Itoa(int(-r)) + "K"
	case r > 0:
		return strconv.Itoa(int(r)) + "D"
	}
	return "30K"
}

// WriteH9 writes the event as an EGD tournament report with nothing stated
// by the organiser: no class, guests' names transliterated.
func WriteH9(w io.Writer, r Report) error { return WriteH9With(w, r, H9Options{}) }

// h9Player is what a player line says of a participant.
type h9Player struct {
	name, country, club, pin string
}

// h9PlayerOf reads a participant for his player line: a registered
// player's Latin name, nationality, province (ISO 3166-2:CN letters as his
// club) and EGD PIN; a guest's name transliterated, his country and the
// PIN his file gave.
func h9PlayerOf(p Participant, players map[int64]registry.Player) h9Player {
	out := h9Player{name: registry.Pinyin(p.Name), country: p.Country, club: "xxx", pin: p.EGDPin}
	if rec, ok := players[p.PlayerID]; ok && p.PlayerID != 0 {
		out.name, out.country = rec.LatinOf(), rec.Nationality
		if pr, ok := registry.ProvinceByCode(rec.ProvinceCode); ok && pr.ISOCode() != "" {
			out.club = pr.ISOCode()
		}
		if pin := rec.ExternalIDs[registry.EGDScheme]; pin != "" {
			out.pin = pin
		}
	}
	out.country = strings.ToUpper(out.country)
	if len(out.country) != 2 || out.country[0] < 'A' || out.country[0] > 'Z' || out.country[1] < 'A' || out.country[1] > 'Z' {
		out.country = "CN"
	}
	if _, ok := egdPin(out.pin); !ok || out.pin == "" {
		out.pin = ""
	}
	return out
}

// WriteH9With writes the event as an EGD tournament report (h9 layout),
// players in standings order, opponents by line number.
func WriteH9With(w io.Writer, r Report, o H9Options) error {
	if err := o.check(); err != nil {
		return err
	}
	e := r.Event
	line := map[int]int{}
	for i, s := range r.Standings {
		line[s.Entrant] = i + 1
	}
	byNumber := map[int]Participant{}
	for _, p := range r.Participants {
		byNumber[p.Number] = p
	}
	class := o.Class
	if class == "" && o.Time != nil {
		class = o.Time.Class()
	}
	name := o.EventName
	if name == "" {
		name = registry.LatinText(e.Name)
	}
	// Every value on one line: a line break in a name or venue would add
	// header or player lines of the writer's choosing.
	if class != "" {
		fmt.Fprintf(w, "; CL[%s]\n", class)
	} else {
		fmt.Fprintf(w, "; class (CL) not stated: the organiser states it, or the time limits, at export\n")
	}
	fmt.Fprintf(w, "; EV[%s]\n; PC[CN,%s]\n; DT[%s,%s]\n; HA[h0]\n; KM[%g]\n", h9Header(name), h9Header(registry.LatinText(e.Venue)),
		e.Start.Format(time.DateOnly), e.End.Format(time.DateOnly), e.Komi)
	if o.Time != nil {
		fmt.Fprintf(w, "; TM[%d]\n", o.Time.Adjusted())
	}
	fmt.Fprintf(w, "; Generated by dankyu\n;\n; Pl Name                            Rk Co Club  Pts SOS\n")
	for i, s := range r.Standings {
		p := byNumber[s.Entrant]
		hp := h9PlayerOf(p, o.Players)
		fmt.Fprintf(w, "%4d %-32s %3s %s %-4s %3d %3d", i+1, h9Name(hp.name), egdRank(p.Rank), hp.country, h9Field(hp.club), s.Points, s.SOS)
		for _, rd := range r.Rounds {
			entry := "0-"
			if p := rd.ByePointsOf(s.Entrant); p == WinPoints {
				entry = "0+"
			} else if p == DrawPoints {
				entry = "0="
			}
			for _, g := range rd.Games {
				side, ok := g.SideOf(s.Entrant)
				if !ok {
					continue
				}
				out := string(side.Outcome)
				if side.Forfeit {
					out += "!"
				}
				entry = fmt.Sprintf("%d%s/%c%d", line[side.Opponent], out, side.Colour, g.Handicap)
			}
			fmt.Fprintf(w, " %8s", entry)
		}
		if hp.pin != "" {
			fmt.Fprintf(w, " |%s", hp.pin)
		}
		fmt.Fprintln(w)
	}
	return nil
}

// h9Header is a header value of an h-file: on one line, without the "]"
// that would end it early.
func h9Header(s string) string { return strings.ReplaceAll(ledger.OneLine(s), "]", ")") }

// h9Field is one field of a player line: no spaces, no ";" that starts a
// comment, no "|" that starts the PIN.
func h9Field(s string) string {
	return strings.NewReplacer(" ", "_", ";", ",", "|", "/").Replace(ledger.OneLine(s))
}

// h9Name is a player's name in an h-file's player line, "Surname Given" as
// EGD files write it: the surname and the given name one field each (the
// spaces within either as _).
func h9Name(s string) string {
	f := strings.Fields(ledger.OneLine(s))
	switch len(f) {
	case 0:
		return "-"
	case 1:
		return h9Field(f[0])
	}
	return h9Field(f[0]) + " " + h9Field(strings.Join(f[1:], " "))
}
