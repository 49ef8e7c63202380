package audit

import (
	"math"
	"slices"
)

// Family is the seed's word for what an indicator watches for.
type Family string

// The four families of the association's audit text, and procedure for what
// staff find that is none of them.
const (
	Overissue     Family = "overissue"     // 滥发证书
	Falsification Family = "falsification" // 弄虚作假
	NoRecords     Family = "no_records"    // 不作记录
	Inactivity    Family = "inactivity"    // 长期不作为
	Procedure     Family = "procedure"     // 程序问题 (findings only)
)

// FamilyWords is a family in Chinese and English.
func FamilyWords(f Family) (zh, en string) {
	switch f {
	case Overissue:
		return "滥发证书", "indiscriminate issuing"
	case Falsification:
		return "弄虚作假", "falsification"
	case NoRecords:
		return "不作记录", "no records"
	case Inactivity:
		return "长期不作为", "long inactivity"
	case Procedure:
		return "程序问题", "procedure"
	}
	return string(f), string(f)
}

// Mark is an indicator's traffic light.
type Mark string

const (
	Green Mark = "green"
	Amber Mark = "amber"
	Red   Mark = "red"
)

// Threshold turns a value into a mark. Absolute thresholds compare the value
// itself; relative ones compare it with the national median of the year
// (as a multiple) and, for red, also ask a robust z-score (distance from the
// median in units of 1.4826·MAD) of at least RedZ, so that neither normal
// spread nor a year in which every agency is alike turns red. MinCount (the
// items counted) and Floor (the value) keep tiny agencies green: a share of
// one in three is no pattern.
type Threshold struct {
	Relative bool // Amber and Red are multiples of the national median
	// Pooled (with Relative) compares a share with the pooled rate of the
	// other agencies (their items over their bases) instead of the median of
	// the agencies' shares, and asks red a Poisson z, (count − expected) /
	// √expected, of at least RedZ: rare events (a median of 0) and agencies
	// of every size are judged alike.
	Pooled bool
	// Model (with Pooled) takes the expected count from the indicator's
	// own model (the ratings' prediction) instead of the other agencies.
	Model    bool
	Lower    bool    // lower is worse: amber below Amber, red below Red (absolute only)
	Amber    float64 // 0: never amber
	Red      float64 // 0: never red
	RedZ     float64 // relative: red needs a robust z of at least this (when the spread is not 0)
	MinCount int64   // fewer counted items: green
	MinBase  int64   // a smaller base (players, certificates, wins): green
	Floor    float64 // a value below this: green
	// The standalone test of a relative threshold, which asks nothing of
	// the other agencies: amber (red) once at least AbsAmberCount
	// (AbsRedCount) items are counted and the value is at least AbsAmber
	// (AbsRed). A pattern unique to one agency (no other agency shows it,
	// so the expected count is 0, or the spread of the others hides it)
	// still turns red once it is large. A count of 0 turns the level off.
	AbsAmber, AbsRed           float64
	AbsAmberCount, AbsRedCount int64
}

// standalone is the mark of the standalone test of t.
func (t Threshold) standalone(in Indicator) Mark {
	switch {
	case t.AbsRedCount > 0 && in.Count >= t.AbsRedCount && in.Value >= t.AbsRed:
		return Red
	case t.AbsAmberCount > 0 && in.Count >= t.AbsAmberCount && in.Value >= t.AbsAmber:
		return Amber
	}
	return Green
}

// worse is the graver of two marks.
func worse(a, b Mark) Mark {
	rank := map[Mark]int{Green: 0, Amber: 1, Red: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// Definition is one indicator: its stable key, family, the seed phrase it
// serves, its names and the default threshold.
type Definition struct {
	Key       string
	Family    Family
	Seed      string // the association's words it serves
	NameZH    string
	NameEN    string
	Unit      string // "per_1000_players", "share", "count", "months", "flag"
	Threshold Threshold
}

// The keys of the indicators (stable: the national data generator and the
// docs/audit.md refer to them).
const (
	KeyDanIssuedPerPlayer    = "dan_issued_per_player"
	KeyHighDanShare          = "high_dan_share"
	KeyMinorHighDan          = "minor_high_dan_share"
	KeyGradeSkips            = "grade_skip_share"
	KeyCertifiedTwice        = "certified_twice_12m"
	KeyAppraisalShare        = "appraisal_share"
	KeyRevocations           = "revocation_share"
	KeyForfeitQualifying     = "forfeit_qualifying_share"
	KeyIdentityEdits         = "identity_edits_before_appraisal"
	KeyLateResultChanges     = "late_result_changes"
	KeyConfirmedVoids        = "confirmed_results_voided"
	KeyUpheldObjections      = "upheld_objections"
	KeyRosterSubmitted       = "roster_submitted"
	KeyDanWithoutCertificate = "dan_players_without_certificate"
	KeyIncompleteDanEvents   = "incomplete_dan_events"
	KeyInactiveMonths        = "inactive_months"
	KeyEventsHeld            = "events_held"
	KeyDanGradeEventsHeld    = "dan_grade_events_held"
	KeyPlayersRegistered     = "players_registered"
	KeyCertificatesIssued    = "certificates_issued"
	KeyOrdersPlaced          = "orders_placed"

	KeyBothWinGuestQualifying      = "both_win_or_guest_qualifying_share"
	KeyRecordsDisagree             = "records_disagreeing_with_result"
	KeyWinnerTwoWarnings           = "winner_with_two_warnings"
	KeyMutualForfeits              = "mutual_forfeit_pairs"
	KeyTradedWins                  = "pairs_trading_wins"
	KeyIdenticalMoves              = "identical_move_sequences"
	KeyNearCopies                  = "near_copy_records"
	KeyResultsAgainstRatings       = "results_against_ratings"
	KeyThinQualifying              = "thin_qualifying_events"
	KeyAppraisalsPerAppraiser      = "appraisals_per_appraiser"
	KeyForeignAppraisers           = "appraisals_by_other_agency_appraisers"
	KeyApplicationsWithoutEvidence = "applications_without_evidence"
	KeyFallenEvidence              = "certificates_on_fallen_evidence"
	KeyInactiveYears               = "consecutive_inactive_years"
	// KeyRankOutsideRating is present only when the audit is given the
	// ratings (Config.Ratings).
	KeyRankOutsideRating = "rank_outside_rating"
)

const (
	seedOverissue = "对于弄虚作假、滥发证书或不作记录的单位加以监管"
	seedInactive  = "对于长期不作为的一级代理机构也会采取相应措施"
	seedRecords   = "不作记录"
)

// Definitions returns every indicator with its default threshold, in the
// order the scorecard shows them.
func Definitions() []Definition {
	rel := func(amber, red float64, minCount int64, floor float64) Threshold {
		return Threshold{Relative: true, Amber: amber, Red: red, RedZ: 3.5, MinCount: minCount, Floor: floor}
	}
	pooled := func(amber, red float64, minCount int64, floor float64) Threshold {
		return Threshold{Relative: true, Pooled: true, Amber: amber, Red: red, RedZ: 4, MinCount: minCount, Floor: floor}
	}
	abs := func(amber, red float64, minCount int64) Threshold {
		return Threshold{Amber: amber, Red: red, MinCount: minCount}
	}
	low := func(amber float64) Threshold { return Threshold{Lower: true, Amber: amber} }
	// sa adds the standalone test (values and counts for amber and red)
	sa := func(t Threshold, amber, red float64, amberCount, redCount int64) Threshold {
		t.AbsAmber, t.AbsRed, t.AbsAmberCount, t.AbsRedCount = amber, red, amberCount, redCount
		return t
	}
	return []Definition{
		{KeyDanIssuedPerPlayer, Overissue, seedOverissue, "每千名注册棋手颁发的段位证书", "dan certificates per 1000 registered players", "per_1000_players", sa(rel(1.6, 2.2, 10, 0), 0, 0, 0, 0)},
		{KeyHighDanShare, Overissue, seedOverissue, "4–5 段在段位证书中的比例", "share of 4–5 dan among dan certificates", "share", sa(pooled(1.8, 3, 5, 0.05), 0.3, 0.5, 10, 20)},
		{KeyMinorHighDan, Overissue, seedOverissue, "未满 18 岁获 4–5 段的比例", "share of 4–5 dan to holders under 18 at issue", "share", sa(pooled(2, 3, 5, 0.03), 0.2, 0.35, 8, 15)},
		{KeyGradeSkips, Overissue, seedOverissue, "越级晋升（一次多于一段，或由级位/无段位直升 2 段以上）的比例", "share of promotions skipping grades (more than one dan, or kyu/none to 2 dan+)", "share", sa(pooled(2, 3, 5, 0.05), 0.3, 0.5, 5, 10)},
		{KeyCertifiedTwice, Overissue, seedOverissue, "12 个月内两次获段位证书的棋手（占段位证书）", "players certified twice within 12 months (per dan certificate)", "share", sa(pooled(2, 3, 5, 0.03), 0.25, 0.4, 10, 20)},
		{KeyAppraisalShare, Overissue, seedOverissue, "鉴定（而非比赛）所发段位证书的比例", "share of dan certificates by appraisal", "share", sa(pooled(1.8, 2.5, 10, 0.1), 0.6, 0.85, 20, 40)},
		{KeyRevocations, Falsification, seedOverissue, "被撤销证书占所发段位证书的比例", "revoked certificates per dan certificate issued", "share", sa(pooled(2.5, 4, 3, 0.02), 0.15, 0.3, 5, 10)},
		{KeyForfeitQualifying, Falsification, seedOverissue, "获证棋手在段位赛中的晋级胜局里不战而胜的比例", "share of forfeits among the qualifying wins of players then certified", "share", Threshold{Amber: 0.08, Red: 0.2, MinBase: 20}},
		{KeyIdentityEdits, Falsification, seedOverissue, "鉴定申请前 30 天内修改出生日期的棋手", "players whose birth date was edited within 30 days before an appraisal application", "count", abs(2, 5, 0)},
		{KeyLateResultChanges, Falsification, seedOverissue, "下一轮已编排后或赛后 7 天以上更改的成绩", "results changed after the next round was paired or more than 7 days after the event", "count", abs(3, 8, 0)},
		{KeyConfirmedVoids, Falsification, seedOverissue, "裁判长确认后又被取消的成绩（按赛事主办单位计）",
			"results voided after the chief referee confirmed them (counted for the event's organiser)", "count", abs(1, 3, 0)},
		{KeyUpheldObjections, Falsification, seedOverissue, "公示期异议成立（申请失败）的公示比例", "share of public notices failed on an upheld objection", "share", sa(pooled(2.5, 4, 2, 0), 0.3, 0.5, 5, 10)},
		{KeyRosterSubmitted, NoRecords, seedRecords, "本年度向协会提交名册（1 是，0 否）", "roster submitted to the association this year (1 yes, 0 no)", "flag", low(1)},
		{KeyDanWithoutCertificate, NoRecords, seedRecords, "1 段以上棋手无证书记录的比例", "share of 1-dan-and-above players without a certificate record", "share", sa(pooled(2, 4, 5, 0.05), 0.3, 0.5, 20, 40)},
		{KeyIncompleteDanEvents, NoRecords, seedRecords, "成绩不全的段位赛", "dan-grade events without complete results", "count", abs(1, 3, 0)},
		{KeyInactiveMonths, Inactivity, seedInactive, "无任何活动的月份", "months without any activity", "months", abs(4, 10, 0)},
		{KeyEventsHeld, Inactivity, seedInactive, "举办的比赛", "events held", "count", low(1)},
		{KeyDanGradeEventsHeld, Inactivity, seedInactive, "举办的段位赛", "dan-grade events held", "count", low(1)},
		{KeyPlayersRegistered, Inactivity, seedInactive, "新注册棋手", "players registered", "count", low(1)},
		{KeyCertificatesIssued, Inactivity, seedInactive, "颁发的证书（段位和级位）", "certificates issued (dan and kyu)", "count", low(1)},
		{KeyOrdersPlaced, Inactivity, seedInactive, "证书预订", "certificate orders placed", "count", low(1)},
		{KeyBothWinGuestQualifying, Falsification, seedOverissue, "获证棋手在段位赛中的晋级胜局里双方均胜或胜非注册棋手（外来棋手）的比例", "share of both-win results and wins over guests among the qualifying wins of players then certified", "share", Threshold{Amber: 0.1, Red: 0.25, MinBase: 20, MinCount: 3}},
		{KeyRecordsDisagree, Falsification, seedOverissue, "棋谱（SGF）与所报成绩不符的对局", "games whose recorded SGF disagrees with the reported result", "count", abs(2, 5, 0)},
		{KeyWinnerTwoWarnings, Falsification, seedOverissue, "被判两次警告的一方仍报为胜方的对局", "games reported won by a side with two warnings", "count", abs(1, 3, 0)},
		{KeyMutualForfeits, Falsification, seedOverissue, "多次相遇的棋手中互相不战而胜的比例", "share of pairs meeting twice or more who won by forfeit against each other", "share", sa(pooled(2, 3, 3, 0), 0.3, 0.5, 6, 10)},
		{KeyTradedWins, Falsification, seedOverissue, "同一对棋手在多次比赛中互有胜负、胜局相等的比例", "share of pairs meeting in two events or more who traded wins evenly", "share", Threshold{Relative: true, Pooled: true, Amber: 1.4, Red: 1.7, RedZ: 4, MinCount: 5, AbsAmber: 0.75, AbsRed: 0.9, AbsAmberCount: 10, AbsRedCount: 20}},
		{KeyIdenticalMoves, Falsification, seedOverissue, "棋谱与另一盘对局相同（含旋转、镜像、交换黑白）的对局", "games whose record repeats another game's, the board turned or mirrored and the colours swapped included", "count", abs(1, 2, 0)},
		{KeyNearCopies, Falsification, seedOverissue, "棋谱与另一盘对局近乎相同（改动、增删少数几手）的对局", "games whose record is a near copy of another game's (a few moves changed, added or removed)", "count", abs(1, 3, 0)},
		{KeyResultsAgainstRatings, Falsification, seedOverissue, "与多次相遇对手的胜负远偏离等级分预测（过于一边倒或过于平均）的棋手",
			"players whose results against opponents met in two events or more lie far from what the ratings predict (far more one-sided or far more even)", "count",
			Threshold{Relative: true, Pooled: true, Model: true, Amber: 3, Red: 5, RedZ: 4, MinCount: 3, AbsAmberCount: 4, AbsRedCount: 8}},
		{KeyThinQualifying, Falsification, seedOverissue, "晋级依据为本机构自办的小型比赛（参赛人数少、对手少或对手不参加其他比赛）的段位证书比例",
			"share of dan certificates resting on a thin event of the agency's own (few entrants, few opponents, or opponents who play nowhere else)", "share",
			Threshold{Relative: true, Pooled: true, Amber: 2, Red: 3, RedZ: 4, MinCount: 5, Floor: 0.05, AbsAmber: 0.15, AbsRed: 0.3, AbsAmberCount: 5, AbsRedCount: 8}},
		{KeyAppraisalsPerAppraiser, Overissue, seedOverissue, "单个鉴定棋手签发的鉴定数（相对于全国每名鉴定棋手的中位数）", "appraisals by the agency's busiest appraiser, as a multiple of the national median per appraiser", "ratio", Threshold{Amber: 4, Red: 20, MinCount: 10}},
		{KeyForeignAppraisers, Overissue, seedOverissue, "由其他代理机构的鉴定棋手签发的鉴定", "appraisals signed by another agency's appraiser", "count", abs(1, 3, 0)},
		{KeyFallenEvidence, Falsification, seedOverissue, "依据已不成立（晋级成绩被取消、鉴定被撤回）却仍然有效的证书",
			"certificates still valid whose evidence fell away (a qualifying result voided, an appraisal withdrawn)", "count", abs(2, 5, 0)},
		{KeyApplicationsWithoutEvidence, NoRecords, seedRecords, "缺少依据（比赛或记录编号、鉴定棋手）的申请", "applications without evidence (event or record reference, appraiser)", "count", abs(1, 5, 0)},
		{KeyInactiveYears, Inactivity, seedInactive, "连续无任何活动的年度", "consecutive years without any activity", "years", abs(1, 2, 0)},
	}
}

// definition returns the indicator of key with the configured threshold.
func (c Config) definitions() []Definition {
	defs := Definitions()
	if c.Ratings != nil {
		defs = append(defs, RatingDefinition())
	}
	for i, d := range defs {
		if t, ok := c.Thresholds[d.Key]; ok {
			defs[i].Threshold = t
		}
	}
	return defs
}

// Indicator is one indicator's value for one agency in one audit.
type Indicator struct {
	Key    string
	Family Family
	Value  float64
	Count  int64 // the items counted (what the drill-down lists)
	Base   int64 // what the value is relative to (players, certificates, wins…); 0 for counts
	Median float64
	Spread float64 // 1.4826 × the median absolute deviation, over the agencies
	Mark   Mark
}

// robust returns the median and the scaled MAD of xs.
func robust(xs []float64) (median, spread float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	median = medianOf(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - median)
	}
	return median, 1.4826 * medianOf(dev)
}

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// markOf is the mark of an indicator under t; rate is the pooled rate of
// the other agencies, which a pooled threshold compares with.
func markOf(t Threshold, in Indicator, rate float64) Mark {
	// the share floor keeps a few items in a small agency green; a count
	// at the standalone red count is no longer "a few", so a large
	// agency's pattern of that size is judged against the others (pooled)
	// however small a share of its many items it is
	large := t.Pooled && t.AbsRedCount > 0 && in.Count >= t.AbsRedCount
	if in.Count < t.MinCount || in.Base < t.MinBase || (in.Value < t.Floor && !large) {
		return Green
	}
	if t.Relative {
		return worse(relativeMark(t, in, rate), t.standalone(in))
	}
	return relativeMark(t, in, rate)
}

// relativeMark is markOf without the gates and the standalone test.
func relativeMark(t Threshold, in Indicator, rate float64) Mark {
	if t.Lower {
		switch {
		case t.Red > 0 && in.Value < t.Red:
			return Red
		case t.Amber > 0 && in.Value < t.Amber:
			return Amber
		}
		return Green
	}
	if !t.Relative {
		switch {
		case t.Red > 0 && in.Value >= t.Red:
			return Red
		case t.Amber > 0 && in.Value >= t.Amber:
			return Amber
		}
		return Green
	}
	if t.Pooled {
		expected := rate * float64(in.Base)
		if expected <= 0 {
			return Green
		}
		ratio := float64(in.Count) / expected
		z := (float64(in.Count) - expected) / math.Sqrt(expected)
		switch {
		case t.Red > 0 && ratio >= t.Red && z >= t.RedZ:
			return Red
		case t.Amber > 0 && ratio >= t.Amber && z >= 2:
			return Amber
		}
		return Green
	}
	over := func(k float64) bool {
		if k <= 0 || in.Value <= in.Median {
			return false
		}
		return in.Median == 0 || in.Value >= k*in.Median
	}
	z := math.Inf(1)
	if in.Spread > 0 {
		z = (in.Value - in.Median) / in.Spread
	}
	switch {
	case over(t.Red) && z >= t.RedZ:
		return Red
	case over(t.Amber):
		return Amber
	}
	return Green
}
