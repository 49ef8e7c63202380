package nationaldata

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/dankyu/dankyu/audit"
	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/registry"
)

// Manifest says what a plan holds and what was planted where, so that the
// audit's evaluation can check its recall.
type Manifest struct {
	Seed      uint64         `json:"seed"`
	Scale     Scale          `json:"scale"`
	Years     []int          `json:"years"`
	AuditYear int            `json:"audit_year"` // the year the anomalies are planted in (the last)
	Counts    map[string]int `json:"counts"`
	// National figures of the audit year over the agencies without an anomaly.
	National  NationalFigures `json:"national"`
	Anomalies []Planted       `json:"anomalies"`
	// Realistic: the data set has circuits, habits and a naturally idle
	// agency (Options.Realistic).
	Realistic bool `json:"realistic,omitempty"`
	// Expected are the red marks the data set holds by nature, not by
	// plan: a naturally idle agency is red in 长期不作为. The evaluation
	// counts them neither as caught nor as false.
	Expected []ExpectedMark `json:"expected,omitempty"`
	// Plants are the abuses planted through the services after the load
	// (PlantAbuses), with the family that must catch each.
	Plants []Plant `json:"plants,omitempty"`
	// Digest is the SHA-256 of the plan (Plan.Digest), filled by the loader.
	Digest string `json:"digest,omitempty"`
}

// ExpectedMark is a family an agency is expected to be red in by nature:
// the evaluation does not count its red marks of that family as false
// (a red mark of another family on it still is).
type ExpectedMark struct {
	Agency string       `json:"agency"`
	Family audit.Family `json:"family"`
	Why    string       `json:"why"`
}

// NationalFigures are the normal agencies' values of the planted indicators.
type NationalFigures struct {
	DanIssuedPerPlayer     float64 `json:"dan_issued_per_player"`
	ForfeitQualifyingShare float64 `json:"forfeit_qualifying_share"`
}

// Planted is one planted anomaly: where, how large (asked and as planted),
// and the ids of what it consists of.
type Planted struct {
	Anomaly   Kind         `json:"anomaly"`
	Agency    string       `json:"agency"`
	Year      int          `json:"year"`
	Indicator string       `json:"indicator"`
	Family    audit.Family `json:"family"` // the indicator's family
	Size      float64      `json:"size"`
	// Measured is the size as planted: the multiple of the national rate,
	// the share, the months, or the count.
	Measured     float64   `json:"measured"`
	Players      []int64   `json:"player_ids,omitempty"`
	Applications []int64   `json:"application_ids,omitempty"`
	Certificates []string  `json:"certificate_numbers,omitempty"`
	Games        []gameRef `json:"games,omitempty"`
}

func (pl *planner) manifest() {
	y := pl.o.Years[len(pl.o.Years)-1]
	m := Manifest{Seed: pl.o.Seed, Scale: pl.o.Scale, Years: pl.o.Years, AuditYear: y, Counts: map[string]int{}, Realistic: pl.o.Realistic}
	for _, a := range pl.ags {
		if a.idle {
			m.Expected = append(m.Expected, ExpectedMark{Agency: a.prov.Prefix, Family: audit.Inactivity,
				Why: "naturally idle all year (a small agency, not planted)"})
		}
	}
	p := pl.plan
	games, records, participants := 0, 0, 0
	for _, e := range p.Tournaments {
		games += len(e.Games)
		participants += len(e.Participants)
		for _, g := range e.Games {
			if g.Record != "" {
				records++
			}
		}
	}
	dan := 0
	for _, c := range p.Certs.Certificates {
		if c.Kind == certs.DanSeries {
			dan++
		}
	}
	for k, v := range map[string]int{"agencies": len(p.Agencies), "players": len(p.Players), "certificates": len(p.Certs.Certificates),
		"dan_certificates": dan, "applications": len(p.Certs.Applications), "notices": len(p.Certs.Notices),
		"objections": len(p.Certs.Objections), "appraisers": len(p.Certs.Appraisers), "orders": len(p.Certs.Orders),
		"roster_submissions": len(p.Certs.Rosters), "tournaments": len(p.Tournaments), "participants": participants, "games": games,
		"sgf_records": records, "log_events": len(p.Events)} {
		m.Counts[k] = v
	}
	// dan certificates per registered player in the audit year, per agency
	start, end := periodStart(y), periodEnd(y)
	registered := map[string]int{}
	for _, pr := range p.Players {
		if pr.CreatedAt.Before(end) {
			registered[pr.AgencyPrefix]++
		}
	}
	issued := map[string]int{}
	for _, c := range pl.certs {
		if c.row.Kind == certs.DanSeries && c.row.IssuingPrefix != registry.AssociationPrefix && !c.row.IssuedAt.Before(start) && c.row.IssuedAt.Before(end) {
			issued[c.row.IssuingPrefix]++
		}
	}
	normalIssued, normalPlayers, normalWins, normalForfeits := 0, 0, 0, 0
	for _, a := range pl.ags {
		if a.anomaly != nil || a.idle {
			continue
		}
		normalIssued += issued[a.prov.Prefix]
		normalPlayers += registered[a.prov.Prefix]
		t := pl.tallyOf(a, y)
		normalWins += t.qualifyingWins
		normalForfeits += t.forfeitWins
	}
	rate := ratio(normalIssued, normalPlayers)
	m.National = NationalFigures{DanIssuedPerPlayer: rate, ForfeitQualifyingShare: ratio(normalForfeits, normalWins)}
	for _, an := range pl.o.Anomalies {
		info, _ := kindInfo(an.Kind)
		pa := Planted{Anomaly: an.Kind, Agency: an.Agency, Year: y, Indicator: info.Indicator, Family: familyOf(info.Indicator), Size: an.Size}
		a := pl.byPref[an.Agency]
		switch an.Kind {
		case OverIssue:
			pa.Measured = ratio(issued[an.Agency], registered[an.Agency]) / rate
			for _, c := range pl.certs {
				if c.row.Kind == certs.DanSeries && c.row.IssuingPrefix == an.Agency && !c.row.IssuedAt.Before(start) && c.row.IssuedAt.Before(end) {
					pa.Certificates = append(pa.Certificates, c.row.Number)
				}
			}
		case Forfeits:
			t := pl.tallyOf(a, y)
			pa.Measured = ratio(t.forfeitWins, t.qualifyingWins)
			pa.Games = pl.forfeit[an.Agency]
		case Inactive:
			pa.Measured = 12
		case BirthDates:
			pa.Players = pl.edited[an.Agency]
			pa.Measured = float64(len(pa.Players))
			for _, app := range pl.apps {
				if app.row.Basis == certs.Appraisal && slices.Contains(pa.Players, app.row.PlayerID) && app.row.AgencyPrefix == an.Agency {
					pa.Applications = append(pa.Applications, app.row.ID)
				}
			}
		case LateResults:
			pa.Games = pl.late[an.Agency]
			pa.Measured = float64(len(pa.Games))
		}
		m.Anomalies = append(m.Anomalies, pa)
	}
	p.Manifest = m
}

// familyOf is the audit family of an indicator.
func familyOf(key string) audit.Family {
	for _, d := range audit.Definitions() {
		if d.Key == key {
			return d.Family
		}
	}
	return ""
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Digest is the SHA-256 of everything the plan writes (rows and events,
// roster heads aside, which the load fills in): equal plans have equal digests.
func (p *Plan) Digest() string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	write := func(v any) {
		if err := enc.Encode(v); err != nil {
			panic(fmt.Sprintf("digest: %v", err)) // plain values
		}
	}
	write(p.Options)
	write(p.Agencies)
	write(p.Players)
	set := p.Certs
	write(set.Orders)
	write(set.Appraisers)
	write(set.Applications)
	write(set.Notices)
	write(set.Objections)
	write(set.Certificates)
	for _, r := range set.Rosters {
		write([]any{r.ID, r.AgencyPrefix, r.Year, r.SubmittedAt, r.Numbers, r.Snapshot})
	}
	write(p.Tournaments)
	for _, e := range p.Events {
		write([]any{e.At, e.Actor, e.Payload.Action(), e.EntityType, e.EntityID, e.Payload})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Matches says whether the data set this manifest describes is the one the
// options ask for (a saved dump is reused only then): the same seed, scale
// and years, and the same anomalies, each of the kind, agency (when one was
// asked for) and size asked, defaults filled in as planning fills them.
func (m Manifest) Matches(o Options) error {
	o, err := o.check()
	if err != nil {
		return err
	}
	differ := func(what string, have, asked any) error {
		return fmt.Errorf("the saved data set has %s %v, not %v", what, have, asked)
	}
	switch {
	case m.Seed != o.Seed:
		return differ("seed", m.Seed, o.Seed)
	case m.Scale != o.Scale:
		return differ("scale", m.Scale, o.Scale)
	case !slices.Equal(m.Years, o.Years):
		return differ("years", m.Years, o.Years)
	case m.Realistic != o.Realistic:
		return differ("realistic", m.Realistic, o.Realistic)
	case len(m.Anomalies) != len(o.Anomalies):
		return differ("anomalies", len(m.Anomalies), len(o.Anomalies))
	}
	for _, a := range o.Anomalies {
		i := slices.IndexFunc(m.Anomalies, func(p Planted) bool { return p.Anomaly == a.Kind })
		switch {
		case i < 0:
			return fmt.Errorf("the saved data set has no %s anomaly", a.Kind)
		case a.Agency != "" && m.Anomalies[i].Agency != a.Agency:
			return differ(string(a.Kind)+" at agency", m.Anomalies[i].Agency, a.Agency)
		case m.Anomalies[i].Size != a.Size:
			return differ(string(a.Kind)+" of size", m.Anomalies[i].Size, a.Size)
		}
	}
	return nil
}
