package book

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/ratings"
	"github.com/dankyu/dankyu/registry"
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

// GroupFlags lists the entrants of the event's dan-grade groups whose 95 %
// rank interval lies at least margin grades from their group's target rank
// (entrants without a rating yet are not flagged: nothing is known).
func (b *Book) GroupFlags(ctx context.Context, tournament int64, margin int) ([]GroupFlag, error) {
	if margin < 1 || margin > maxFlagMargin {
		return nil, ReasonFlagMargin.With(ledger.Value("margin", strconv.Itoa(margin)), ledger.Value("max", strconv.Itoa(maxFlagMargin)))
	}
	rows, err := b.store.DB().Query(ctx, `SELECT p.number, p.player_id, p.name, g.name, g.target_rank, r.mean, r.variance
		FROM participants p
		JOIN tournament_groups g ON g.id = p.group_id
		JOIN rating_players r ON r.player_id = p.player_id AND r.seen
		WHERE p.tournament_id = $1 AND NOT p.withdrawn
		ORDER BY p.number`, tournament)
	if err != nil {
		return nil, ledger.PgErr(err, "group entrants' ratings")
	}
	type row struct {
		number     int
		player     int64
		name       string
		group      string
		target     int16
		mean, vari float64
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (row, error) {
		var x row
		err := r.Scan(&x.number, &x.player, &x.name, &x.group, &x.target, &x.mean, &x.vari)
		return x, err
	})
	if err != nil {
		return nil, fmt.Errorf("group entrants' ratings: %w", err)
	}
	var out []GroupFlag
	for _, x := range all {
		sd := math.Sqrt(x.vari)
		est := ratings.EstimateRank(x.mean, sd)
		target := int(x.target)
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
