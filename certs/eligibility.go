package certs

import (
	"strconv"
	"strings"
	"time"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// Basis is why a rank is granted.
type Basis string

const (
	Tournament           Basis = "tournament"            // a competition or dan-grade tournament result
	Appraisal            Basis = "appraisal"             // an appraiser approved by the association
	NationalResult       Basis = "national_result"       // 6 dan: a result in a recognised national event
	NationalChampionship Basis = "national_championship" // 7 dan: national amateur champion
	// (PaperBasis, in paper.go, marks certificates recorded from paper.)
)

// Bases lists every basis, in the order forms show them.
func Bases() []Basis { return []Basis{Tournament, Appraisal, NationalResult, NationalChampionship} }

// ParseBasis reads a basis name.
func ParseBasis(s string) (Basis, error) {
	b := Basis(strings.ToLower(strings.TrimSpace(s)))
	for _, x := range Bases() {
		if b == x {
			return b, nil
		}
	}
	return "", ReasonBasis.OnField("basis", "value", s)
}

// AthleteGrade is the national athlete grade a certificate lets its holder apply for.
type AthleteGrade string

const (
	NoGrade     AthleteGrade = ""
	SecondClass AthleteGrade = "second" // 4–5 dan
	FirstClass  AthleteGrade = "first"  // 6–7 dan
	// GradeUnknown is the grade of a 4–7 dan recorded from a paper
	// register that does not say what it was granted for.
	GradeUnknown AthleteGrade = "unknown"
)

// GradeChinese and GradeEnglish word a grade (refusals use them).
func GradeChinese(g AthleteGrade) string {
	switch g {
	case SecondClass:
		return "国家二级运动员"
	case FirstClass:
		return "国家一级运动员"
	case GradeUnknown:
		return "不详"
	}
	return "无"
}

// GradeEnglish is GradeChinese in English.
func GradeEnglish(g AthleteGrade) string {
	switch g {
	case SecondClass:
		return "national second-class athlete"
	case FirstClass:
		return "national first-class athlete"
	case GradeUnknown:
		return "unknown"
	}
	return "no grade"
}

// BasisChinese words a basis in Chinese.
func BasisChinese(b Basis) string {
	switch b {
	case Tournament:
		return "比赛成绩"
	case Appraisal:
		return "鉴定"
	case NationalResult:
		return "全国比赛成绩"
	case NationalChampionship:
		return "全国冠军"
	case PaperBasis:
		return "纸质证书补录"
	}
	return string(b)
}

// AthleteGradeFor is the grade a rank obtained on basis b qualifies for;
// a rank obtained by appraisal never does.
func AthleteGradeFor(r registry.Rank, b Basis) AthleteGrade {
	switch {
	case b == Appraisal:
		return NoGrade
	case b == PaperBasis && NeedsNotice(r):
		return GradeUnknown // what the paper was granted for is not known here
	case r == 4 || r == 5:
		return SecondClass
	case r == 6 || r == 7:
		return FirstClass
	}
	return NoGrade
}

// NeedsNotice reports whether a rank is announced publicly before it stands.
func NeedsNotice(r registry.Rank) bool { return r >= 4 && r <= registry.HighestDan }

// AssociationIssues reports whether only the association may approve and
// issue a rank (6 and 7 dan), under its own prefix 000.
func AssociationIssues(r registry.Rank) bool { return r >= 6 }

// MinAppraisalAge is how old a player put forward through appraisal must be.
const MinAppraisalAge = 18

// ApplicationInput is what an agency (or staff) submits.
type ApplicationInput struct {
	PlayerID   int64
	TargetRank string
	Basis      string
	// EventID names the registry event a tournament, 6-dan or 7-dan
	// application rests on; the registry states the player's record
	// there and checks it against the basis (no text is taken for it).
	EventID     int64
	Evidence    string // free text or a document reference
	AppraiserID int64  // appraisal: optional, the session's appraiser (checked when given)
	// AppraisalSessionID is the appraisal session the application rests on
	// (appraisal: required).
	AppraisalSessionID int64
}

// Application limits on free text.
const maxEvidenceLen = 2000

// cleanText checks the application's free text (ledger.Text) and returns
// it trimmed.
func (in ApplicationInput) cleanText() (ApplicationInput, error) {
	var err error
	if in.Evidence, err = ledger.OptionalText("evidence", in.Evidence, maxEvidenceLen); err != nil {
		return in, err
	}
	return in, nil
}

// checkApplication applies the rules that need no database beyond the
// player: for which rank, on which basis (who may apply is the policy's).
// on is the application date.
func checkApplication(p registry.Player, in ApplicationInput, on time.Time) (registry.Rank, Basis, error) {
	target, err := registry.ParseRank(in.TargetRank)
	if err != nil {
		return 0, "", registry.ReasonRank.OnField("target_rank", "value", in.TargetRank)
	}
	basis, err := ParseBasis(in.Basis)
	if err != nil {
		return 0, "", err
	}
	switch {
	case target == registry.NoRank:
		return 0, "", ReasonTargetRankRequired.OnField("target_rank")
	case target == registry.HonoraryDan8:
		return 0, "", ReasonHonoraryNeverIssued.OnField("target_rank")
	case !target.Outranks(p.Rank):
		return 0, "", ReasonNotAboveRank.FieldWith("target_rank", ledger.Words("target", target.Chinese(), target.String()),
			ledger.Words("current", rankOrNoneZH(p.Rank), rankOrNone(p.Rank)))
	}
	switch {
	case target == 6 && basis != NationalResult:
		return 0, "", ReasonSixDanBasis.OnField("basis")
	case target == 7 && basis != NationalChampionship:
		return 0, "", ReasonSevenDanBasis.OnField("basis")
	case target < 6 && (basis == NationalResult || basis == NationalChampionship):
		return 0, "", ReasonHighDanBasisOnly.OnField("basis", "basis", string(basis))
	}
	switch basis {
	case Tournament, NationalResult, NationalChampionship:
		if in.EventID <= 0 {
			return 0, "", ReasonEvidenceEventRequired.OnField("event_id")
		}
	case Appraisal:
		if in.AppraisalSessionID <= 0 {
			return 0, "", ReasonAppraisalSessionRequired.OnField("appraisal_session_id")
		}
		if age := registry.AgeOn(p.BirthDate, on); age < MinAppraisalAge {
			return 0, "", ReasonUnderAppraisalAge.OnField("basis", "min", strconv.Itoa(MinAppraisalAge), "age", strconv.Itoa(age),
				"date", on.In(ledger.ChinaTime).Format(time.DateOnly))
		}
	}
	return target, basis, nil
}

func rankOrNone(r registry.Rank) string {
	if r == registry.NoRank {
		return "(none)"
	}
	return r.String()
}

func rankOrNoneZH(r registry.Rank) string {
	if r == registry.NoRank {
		return "（无）"
	}
	return r.Chinese()
}
