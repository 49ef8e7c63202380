package tournamentpages

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
	"github.com/dankyu/dankyu/web/kit"
)

// Applications reads what became of the certificate applications a
// dan-grade event proposed: a public read, no name or reason in it.
type Applications interface {
	ApplicationOutcomes(ctx context.Context, ids []int64) (map[int64]certs.ApplicationOutcome, error)
}

// Listed finds those of the players ids whom the public player search
// lists (adults, records kept): a minor's application is not shown.
type Listed interface {
	PubliclyListed(ctx context.Context, ids []int64) (map[int64]registry.Player, error)
}

// WithApplications shows, beside each proposal of a dan-grade event, what
// became of its application (filed, approved, on notice, certificate
// issued, refused, withdrawn) with a link to its notice or certificate,
// for the players listed shows.
func (p *Pages) WithApplications(apps Applications, listed Listed) *Pages {
	p.apps, p.listed = apps, listed
	return p
}

// gradeGroup is one dan-grade group's table: the group, the rules that
// earn its players a rank, and its players in standings order.
type gradeGroup struct {
	Group tournaments.Group
	Rules []tournaments.GradingRule
	Rows  []gradeRow
}

// gradeRow is a group's player: his standing, his page (0: a guest), the
// rank he earned (NoRank: none, or the event is not over) and what
// became of his proposal (nil: none).
type gradeRow struct {
	Standing tournaments.Standing
	PlayerID int64
	Earned   registry.Rank
	Outcome  *proposalOutcome
}

// proposalOutcome is a proposal as the public sees it: its status in
// words (a texts key), a link to its notice or certificate, or the note
// of why none was filed.
type proposalOutcome struct {
	Key      string // texts key of the status; "" when Note says it
	Link     string
	LinkKey  string // texts key of the link's words
	LinkText string // the link's words when they are data (a certificate number)
	Note     string
}

// gradeGroups builds the tables of a dan-grade event's groups; earned
// ranks are marked once the event is over and its rules hold.
func gradeGroups(r tournaments.Report, outcomes map[int]*proposalOutcome) []gradeGroup {
	if !r.Event.DanGrade || len(r.Event.Groups) == 0 {
		return nil
	}
	over := r.Event.Status == "finished" || (r.Event.Source != "" && r.Event.PairedRounds > 0)
	of := map[int]tournaments.Participant{}
	for _, pt := range r.Participants {
		of[pt.Number] = pt
	}
	var out []gradeGroup
	for _, g := range r.Event.Groups {
		gg := gradeGroup{Group: g, Rules: []tournaments.GradingRule{{MinWins: g.MinWins, Group: g.Name, Rank: g.TargetRank}}}
		for _, rule := range r.Event.Grading {
			if rule.Group == "" || rule.Group == g.Name {
				gg.Rules = append(gg.Rules, rule)
			}
		}
		for _, s := range r.Standings {
			pt, ok := of[s.Entrant]
			if !ok || pt.GroupID != g.ID {
				continue
			}
			row := gradeRow{Standing: s, PlayerID: pt.PlayerID, Earned: registry.NoRank, Outcome: outcomes[s.Entrant]}
			if over && r.Event.RulesHold() {
				row.Earned = tournaments.Earned(gg.Rules, s.Place, s.Wins)
			}
			gg.Rows = append(gg.Rows, row)
		}
		out = append(out, gg)
	}
	return out
}

// proposalOutcomes words what became of each proposal of the report, by
// participant number. A player the public search does not list (a
// minor) has his application withheld, as the search withholds him.
func (p *Pages) proposalOutcomes(ctx context.Context, lang kit.Lang, r tournaments.Report) (map[int]*proposalOutcome, error) {
	out := map[int]*proposalOutcome{}
	if len(r.Proposals) == 0 {
		return out, nil
	}
	player := map[int]int64{}
	for _, pt := range r.Participants {
		player[pt.Number] = pt.PlayerID
	}
	var ids, players []int64
	for _, pr := range r.Proposals {
		if pr.ApplicationID != 0 {
			ids = append(ids, pr.ApplicationID)
			players = append(players, player[pr.Number])
		}
	}
	apps := map[int64]certs.ApplicationOutcome{}
	listed := map[int64]registry.Player{}
	var err error
	if p.apps != nil && len(ids) > 0 {
		if apps, err = p.apps.ApplicationOutcomes(ctx, ids); err != nil {
			return nil, err
		}
	}
	if p.listed != nil && len(players) > 0 {
		if listed, err = p.listed.PubliclyListed(ctx, players); err != nil {
			return nil, err
		}
	}
	for _, pr := range r.Proposals {
		o := &proposalOutcome{}
		out[pr.Number] = o
		if pr.ApplicationID == 0 {
			o.Note = pr.NoteText(lang)
			continue
		}
		if _, ok := listed[player[pr.Number]]; !ok {
			o.Key = "gg_app_withheld" // a minor, or nobody to ask: nothing of his application
			continue
		}
		if pr.NoteCode == tournaments.NoteWithdrawn.Code() {
			o.Key = "gg_app_withdrawn"
			continue
		}
		a, ok := apps[pr.ApplicationID]
		if !ok {
			o.Key = "gg_app_filed"
			continue
		}
		notice := func() {
			if a.NoticeID != 0 {
				o.Link, o.LinkKey = "/notices/"+strconv.FormatInt(a.NoticeID, 10), "gg_notice_link"
			}
		}
		switch a.Status {
		case certs.AppApplied:
			o.Key = "gg_app_filed"
		case certs.AppOnNotice:
			o.Key = "gg_app_on_notice"
			notice()
		case certs.AppIssued:
			o.Key = "gg_app_issued"
			if a.CertificateNumber != "" {
				o.Link, o.LinkText = "/verify?number="+url.QueryEscape(a.CertificateNumber), a.CertificateNumber
			} else if a.Revoked {
				o.Key = "gg_app_revoked"
			}
		case certs.AppRejected:
			o.Key = "gg_app_refused"
			notice()
		case certs.AppFailed:
			o.Key = "gg_app_failed"
			notice()
		default:
			o.Key = "gg_app_filed"
		}
	}
	return out, nil
}

// gradeRuleText words a group's rules in the page's language, ranks as
// the page names them: "胜 5 局以上 → 4段；名次前 2 名 → 5段".
func gradeRuleText(p kit.Page, rules []tournaments.GradingRule) string {
	var out []string
	for _, r := range rules {
		key := "gg_rule_wins"
		if r.MinWins == 1 {
			key = "gg_rule_wins_one" // "at least 1 win"
		}
		cond := fmt.Sprintf(p.T[key], r.MinWins)
		if r.MaxPlacing > 0 {
			cond = fmt.Sprintf(p.T["gg_rule_place"], r.MaxPlacing)
		}
		out = append(out, cond+" → "+kit.RankName(p.Lang, r.Rank))
	}
	return strings.Join(out, p.T["gg_rule_sep"])
}
