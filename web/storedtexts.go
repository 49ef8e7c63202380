package web

import (
	"regexp"
	"strconv"
)

// The registry stored some texts it wrote in English before it kept codes
// with parameters: a notice's basis (the event and the player's record
// there) and an application failed by an upheld objection. The portal
// reads the parameters back out of those texts and words them in the
// reader's language; the names in them (the event's, the group's) and
// the ruling someone typed stay data.

// storedBasis is a notice's basis detail read back: the event, and the
// record the player has there.
type storedBasis struct {
	Event   string // the event's name, data
	EventID int64
	// one of the two records: placing, wins of games (and group); or a
	// dan-grade group's wins of rounds against its threshold
	Placing, Wins, Games int
	Group                string
	Threshold            int
	GroupRecord          bool
}

var (
	storedBasisRE       = regexp.MustCompile(`^(.*) \(tournament (\d+)\)(?: — (.*))?$`)
	storedPlacingRE     = regexp.MustCompile(`^placing (\d+), (\d+) wins of (\d+)(?:, group (.*))?$`)
	storedGroupRE       = regexp.MustCompile(`^(.*): (\d+) wins of (\d+), threshold (\d+)$`)
	storedObjectionRE   = regexp.MustCompile(`(?s)^objection \d+ upheld: (.*)$`)
	storedObjectionNote = regexp.MustCompile(`^objection \d+ was upheld$`)
)

// parseStoredBasis reads a notice's basis detail as the registry wrote
// it; ok is false for any other text (an appraiser's name, a text typed
// by a person), which is shown as it is.
func parseStoredBasis(detail string) (b storedBasis, ok bool) {
	m := storedBasisRE.FindStringSubmatch(detail)
	if m == nil {
		return b, false
	}
	b.Event = m[1]
	b.EventID, _ = strconv.ParseInt(m[2], 10, 64)
	switch rec := m[3]; {
	case rec == "":
	case storedPlacingRE.MatchString(rec):
		r := storedPlacingRE.FindStringSubmatch(rec)
		b.Placing, b.Wins, b.Games, b.Group = atoi(r[1]), atoi(r[2]), atoi(r[3]), r[4]
	case storedGroupRE.MatchString(rec):
		r := storedGroupRE.FindStringSubmatch(rec)
		b.Group, b.Wins, b.Games, b.Threshold, b.GroupRecord = r[1], atoi(r[2]), atoi(r[3]), atoi(r[4]), true
	default:
		return b, false
	}
	return b, true
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// storedReason is an application's reason as the reader reads it: a
// reason the registry wrote is worded in the page's language (key), with
// the ruling a person typed as data; any other reason (typed by the
// agency or staff) is data alone.
func storedReason(reason string) (key, data string) {
	if m := storedObjectionRE.FindStringSubmatch(reason); m != nil {
		return "stored_objection_upheld", m[1]
	}
	if storedObjectionNote.MatchString(reason) {
		return "stored_objection_upheld", ""
	}
	return "", reason
}
