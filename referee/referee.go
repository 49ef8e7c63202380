// Package referee is the referee's desk in front of the rules engine:
// it checks a submitted record and its options, has the engine adjudicate
// it, and words what it refuses (the record too large, unknown rules, a
// komi that is not a number, a record that does not parse) as refusals
// with codes, so the portal and the API say them alike in either language.
// The engine itself stays pure.
package referee

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/rules"
)

// The referee's refusals.
var (
	ReasonRecordEmpty = ledger.NewReason(ledger.Invalid, "RECORD_EMPTY",
		"请上传或粘贴 SGF 棋谱。", "send the SGF record: it is empty.")
	ReasonRecordTooLarge = ledger.NewReason(ledger.Invalid, "RECORD_TOO_LARGE",
		"棋谱不能超过 {max} 字节。", "a record is at most {max} bytes.")
	ReasonUnknownRules = ledger.NewReason(ledger.Invalid, "UNKNOWN_RULES",
		"“{value}”不是可用的规则：应为中国规则、AGA、日本规则、应氏规则或 Tromp–Taylor。",
		"{value} is not a rule set: want chinese, aga, japanese, ing or tromp-taylor.")
	ReasonKomi = ledger.NewReason(ledger.Invalid, "KOMI",
		"贴目“{value}”应为目数，如 7.5。", "komi {value}: want a number of points such as 7.5.")
	ReasonRecordSyntax = ledger.NewReason(ledger.Invalid, "RECORD_SYNTAX",
		"棋谱第 {offset} 字节处无法读取：{detail}", "the record cannot be read at byte {offset}: {detail}")
	ReasonRecordUnreadable = ledger.NewReason(ledger.Invalid, "RECORD_UNREADABLE",
		"无法读取棋谱：{detail}", "the record cannot be read: {detail}")
	ReasonRecordTooBig = ledger.NewReason(ledger.Invalid, "RECORD_TOO_BIG",
		"棋谱过大：{what}超过 {max}，无法裁定。", "the record is too big to adjudicate: it has more than {max} {what}.")
	ReasonBadOption = ledger.NewReason(ledger.Invalid, "BAD_OPTION",
		"该选项与棋谱不符：{detail}", "the option does not fit the record: {detail}")
)

// Request is a record to adjudicate and how.
type Request struct {
	SGF   []byte
	File  string // the record's name, for the results
	Rules string // "" reads the record's RU
	Komi  *float64
	// Dead lists dead stones (GTP or SGF points); DeadFromMarkup takes them
	// from the record's territory markup instead.
	Dead           []string
	Strict         bool
	DeadFromMarkup bool
}

// ParseKomi reads a komi as typed; "" keeps the record's.
func ParseKomi(s string) (*float64, error) {
	k, err := rules.ParseKomi(s)
	if err != nil {
		return nil, ReasonKomi.OnField("komi", "value", strings.TrimSpace(s))
	}
	return k, nil
}

// Adjudicate replays and counts every game of the record.
func Adjudicate(in Request) ([]rules.Result, error) {
	switch {
	case len(strings.TrimSpace(string(in.SGF))) == 0:
		return nil, ReasonRecordEmpty.OnField("sgf")
	case len(in.SGF) > rules.MaxRecordBytes:
		return nil, ReasonRecordTooLarge.OnField("sgf", "max", strconv.Itoa(rules.MaxRecordBytes))
	case in.Komi != nil && (math.IsNaN(*in.Komi) || math.IsInf(*in.Komi, 0)):
		return nil, ReasonKomi.OnField("komi", "value", strconv.FormatFloat(*in.Komi, 'g', -1, 64))
	}
	rs, err := rules.ParseRuleSet(in.Rules)
	if err != nil {
		return nil, ReasonUnknownRules.OnField("rules", "value", in.Rules)
	}
	results, err := rules.AdjudicateSGF(in.SGF, in.File, rules.Options{Rules: rs, Komi: in.Komi, Dead: in.Dead,
		Strict: in.Strict, DeadFromMarkup: in.DeadFromMarkup})
	var oe *rules.OptionError
	var se *rules.SyntaxError
	var le *rules.LimitError
	switch {
	case err == nil:
		return results, nil
	case errors.As(err, &le):
		return nil, ReasonRecordTooBig.FieldWith("sgf", limitWords(le.What), ledger.Value("max", strconv.Itoa(le.Max)))
	case errors.As(err, &oe):
		return nil, ReasonBadOption.OnField(oe.Option, "detail", oe.Err.Error())
	case errors.As(err, &se):
		return nil, ReasonRecordSyntax.OnField("sgf", "offset", strconv.Itoa(se.Offset), "detail", se.Msg)
	}
	return nil, ReasonRecordUnreadable.OnField("sgf", "detail", err.Error())
}

// limitWords words what a cap of the engine counts, in both languages.
func limitWords(l rules.Limit) ledger.Param {
	zh := map[rules.Limit]string{
		rules.LimitPropertyPoints: "一个属性中的点数",
		rules.LimitRecordPoints:   "棋谱中的点数",
		rules.LimitNodes:          "节点数",
		rules.LimitVariations:     "变化数",
		rules.LimitGames:          "对局数",
		rules.LimitValues:         "属性值个数",
	}[l]
	if zh == "" {
		zh = string(l)
	}
	return ledger.Words("what", zh, string(l))
}
