package book

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/tournaments"
)

// FlagGroupFar is the review flag of a participant entering a dan-grade
// group whose rating puts him far from the group's rank: well above it (a
// sandbagger) or well below it (a rank bought elsewhere). A flag for the
// organiser and staff to look at, worded in the reader's language; never
// a refusal.
var FlagGroupFar = ledger.NewReason(ledger.Precondition, "FLAG_RATING_GROUP_FAR",
	"{player}（{number} 号）报名{group}（目标 {target}），但其等级分 {rating}±{sd} 对应 {estimate}（95% 区间 {low}–{high}），与目标相差 {grades} 级（{direction}），请审核。",
	"{player} (no. {number}) entered {group} (target {target}), but his rating {rating} ± {sd} stands for {estimate} (95 % interval {low}–{high}), {grades} grades {direction} the target: review.")

// GroupFlag is one flagged entrant of a dan-grade group, with the figures.
type GroupFlag struct {
	Number   int
	PlayerID int64
	Name     string
	Group    string
	Target   registry.Rank
	Rating   float64
	SD       float64
	Estimate ratings.Estimate
	Grades   int // grades between the target and the nearer end of the interval; > 0 above, < 0 below
	Flag     *ledger.Error
}

// maxFlagMargin bounds the margin asked for.
const maxFlagMargin = 20

// GroupFlags lists the entrants of an event's dan-grade groups (ev and
// its participants, as tournaments reads them) whose 95 % rank interval
// lies at least margin grades from their group's target rank. Entrants
// without a rating yet, guests and withdrawn entrants are not flagged.
func (b *Book) GroupFlags(ctx context.Context, ev tournaments.Event, entrants []tournaments.Participant, margin int) ([]GroupFlag, error) {
	if margin < 1 || margin > maxFlagMargin {
		return nil, ReasonFlagMargin.With(ledger.Value("margin", strconv.Itoa(margin)), ledger.Value("max", strconv.Itoa(maxFlagMargin)))
	}
	groups := map[int64]tournaments.Group{}
	for _, g := range ev.Groups {
		groups[g.ID] = g
	}
	type row struct {
		number     int
		player     int64
		name       string
		group      string
		target     int
		mean, vari float64
	}
	var want []row
	var ids []int64
	for _, p := range entrants {
		g, ok := groups[p.GroupID]
		if !ok || p.PlayerID == 0 || p.Withdrawn {
			continue
		}
		want = append(want, row{number: p.Number, player: p.PlayerID, name: p.Name, group: g.Name, target: int(g.TargetRank)})
		ids = append(ids, p.PlayerID)
	}
	if len(want) == 0 {
		return nil, nil
	}
	rows, err := b.store.DB().Query(ctx, `SELECT player_id, mean, variance FROM rating_players WHERE seen AND player_id = ANY($1)`, ids)
	if err != nil {
		return nil, ledger.PgErr(err, "group entrants' ratings")
	}
	type belief struct{ mean, vari float64 }
	rated := map[int64]belief{}
	for rows.Next() {
		var id int64
		var x belief
		if err := rows.Scan(&id, &x.mean, &x.vari); err != nil {
			rows.Close()
			return nil, fmt.Errorf("group entrants' ratings: %w", err)
		}
		rated[id] = x
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("group entrants' ratings: %w", err)
	}
	var all []row
	for _, x := range want {
		if r, ok := rated[x.player]; ok {
			x.mean, x.vari = r.mean, r.vari
			all = append(all, x)
		}
	}
	var out []GroupFlag
	for _, x := range all {
		sd := math.Sqrt(x.vari)
		est := ratings.EstimateRank(x.mean, sd)
		target := x.target
		var grades int
		switch {
		case gradeSteps(est.Low, target) > 0: // the whole interval above the target
			grades = gradeSteps(est.Low, target)
		case gradeSteps(target, est.High) > 0: // the whole interval below
			grades = -gradeSteps(target, est.High)
		}
		if abs(grades) < margin {
			continue
		}
		f := GroupFlag{Number: x.number, PlayerID: x.player, Name: x.name, Group: x.group, Target: registry.Rank(target),
			Rating: x.mean, SD: sd, Estimate: est, Grades: grades}
		dir := ledger.Words("direction", "高于目标", "above")
		if grades < 0 {
			dir = ledger.Words("direction", "低于目标", "below")
		}
		rk := func(name string, g int) ledger.Param {
			r := registry.Rank(g)
			return ledger.Words(name, r.Chinese(), r.English())
		}
		f.Flag = FlagGroupFar.With(ledger.Value("player", x.name), ledger.Value("number", strconv.Itoa(x.number)),
			ledger.Value("group", x.group), rk("target", target),
			ledger.Value("rating", strconv.FormatFloat(x.mean, 'f', 0, 64)), ledger.Value("sd", strconv.FormatFloat(sd, 'f', 0, 64)),
			rk("estimate", est.Rank), rk("low", est.Low), rk("high", est.High),
			ledger.Value("grades", strconv.Itoa(abs(grades))), dir)
		out = append(out, f)
	}
	return out, nil
}

// gradeSteps is how many grades a lies above b (kyu negative, dan
// positive, no grade 0: 1 kyu to 1 dan is one step).
func gradeSteps(a, b int) int {
	pos := func(g int) int {
		if g < 0 {
			return g + 1
		}
		return g
	}
	return pos(a) - pos(b)
}

func abs(x int) int { return max(x, -x) }
