// Package referee is the referee's desk in front of the rules engine:
// it checks a submitted record and its options, has the engine adjudicate
// it, and words what it refuses (the record too large, unknown rules, a
// komi that is not a number, a record that does not parse) as refusals
// with codes, so the portal and the API say them alike in either language.
// The engine itself stays pure.
package referee

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	ReasonRecordTooBig = ledger.NewReason(ledger.Invalid, "RECORD_TOO_BIG",
		"棋谱过大：{what}超过 {max}，无法裁定。", "the record is too big to adjudicate: it has more than {max} {what}.")
)

// The refusals of a record the rules engine cannot read, one per code of
// its errors (rules.SyntaxError, RecordError, PointError), so that each
// reads in the page's language; the generic ones take what the engine
// may one day say that the referee does not know yet.
var (
	ReasonRecordSyntax = ledger.NewReason(ledger.Invalid, "RECORD_SYNTAX",
		"棋谱第 {offset} 字节处格式有误，无法读取。", "the record cannot be read at byte {offset}.")
	ReasonRecordOpenTree = ledger.NewReason(ledger.Invalid, "RECORD_OPEN_TREE",
		"棋谱第 {offset} 字节处应以“(”开始一局棋，实为{found}。",
		"the record cannot be read at byte {offset}: expected '(' to open a game tree, found {found}.")
	ReasonRecordFirstNode = ledger.NewReason(ledger.Invalid, "RECORD_FIRST_NODE",
		"棋谱第 {offset} 字节处应以“;”开始一局棋的第一个节点，实为{found}。",
		"the record cannot be read at byte {offset}: expected ';' to start the first node of a game tree, found {found}.")
	ReasonRecordCloseTree = ledger.NewReason(ledger.Invalid, "RECORD_CLOSE_TREE",
		"棋谱在第 {offset} 字节处结束，缺少结束一局棋的“)”。",
		"the record cannot be read at byte {offset}: it ends without the ')' that closes the game tree.")
	ReasonRecordAfterVariation = ledger.NewReason(ledger.Invalid, "RECORD_AFTER_VARIATION",
		"棋谱第 {offset} 字节处：变化之后只能是“(”或“)”，不能再有“;”节点。",
		"the record cannot be read at byte {offset}: expected '(' or ')' after a variation, found ';'.")
	ReasonRecordNodeOrTree = ledger.NewReason(ledger.Invalid, "RECORD_NODE_OR_TREE",
		"棋谱第 {offset} 字节处应为“;”“(”或“)”，实为{found}。",
		"the record cannot be read at byte {offset}: expected ';', '(' or ')', found {found}.")
	ReasonRecordPropertyID = ledger.NewReason(ledger.Invalid, "RECORD_PROPERTY_ID",
		"棋谱第 {offset} 字节处的属性名应含大写字母，实为{found}。",
		"the record cannot be read at byte {offset}: expected a property identifier in capital letters, found {found}.")
	ReasonRecordPropertyValue = ledger.NewReason(ledger.Invalid, "RECORD_PROPERTY_VALUE",
		"棋谱第 {offset} 字节处：属性 {property} 之后应为“[”，实为{found}。",
		"the record cannot be read at byte {offset}: expected '[' after property {property}, found {found}.")
	ReasonRecordCloseValue = ledger.NewReason(ledger.Invalid, "RECORD_CLOSE_VALUE",
		"棋谱第 {offset} 字节处开始的属性值没有以“]”结束。",
		"the record cannot be read at byte {offset}: the value opened there has no closing ']'.")
	ReasonRecordNesting = ledger.NewReason(ledger.Invalid, "RECORD_NESTING",
		"棋谱第 {offset} 字节处的变化嵌套超过 {max} 层。",
		"the record cannot be read at byte {offset}: variations are nested deeper than {max}.")
	ReasonRecordBoardSize = ledger.NewReason(ledger.Invalid, "RECORD_BOARD_SIZE",
		"第 {game} 局的棋盘大小“{value}”无效：应为 2 到 {max} 路。",
		"game {game}: board size {value} is not a size from 2 to {max}.")
	ReasonRecordKomi = ledger.NewReason(ledger.Invalid, "RECORD_KOMI",
		"第 {game} 局棋谱记录的贴目“{value}”不是数字。", "game {game}: the record's komi {value} is not a number.")
	ReasonRecordHandicap = ledger.NewReason(ledger.Invalid, "RECORD_HANDICAP",
		"第 {game} 局棋谱记录的让子数“{value}”不是 0 到 81 之间的数。",
		"game {game}: the record's handicap {value} is not a number of stones from 0 to 81.")
	ReasonRecordPoint = ledger.NewReason(ledger.Invalid, "RECORD_POINT",
		"第 {game} 局：属性 {property} 中的点“{value}”无法读取，应为两个坐标字母。",
		"game {game}: the point {value} of property {property} is not two coordinate letters.")
	ReasonRecordCharset = ledger.NewReason(ledger.Invalid, "RECORD_CHARSET",
		"第 {game} 局棋谱声明的字符集“{value}”无法识别。", "game {game}: the record's charset {value} is unknown.")
	ReasonRecordHandicapPoints = ledger.NewReason(ledger.Invalid, "RECORD_HANDICAP_POINTS",
		"第 {game} 局：{size} 路棋盘没有标准让子点，让 {handicap} 子的棋谱须自行摆放让子。",
		"game {game}: a {size}×{size} board has no standard handicap points; a record with {handicap} handicap stones must place them.")
	ReasonRecordHandicapStones = ledger.NewReason(ledger.Invalid, "RECORD_HANDICAP_STONES",
		"第 {game} 局：标准让子点只能摆 2 到 9 子，让 {handicap} 子的棋谱须自行摆放让子。",
		"game {game}: standard handicap points take 2 to 9 stones; a record with {handicap} must place them.")
	ReasonRecordUnreadable = ledger.NewReason(ledger.Invalid, "RECORD_UNREADABLE",
		"无法读取棋谱。", "the record cannot be read.")
	ReasonDeadPoint = ledger.NewReason(ledger.Invalid, "DEAD_POINT",
		"死子“{value}”不是棋盘上的点：应写作 D4、Q16 这样的坐标（不用字母 I），或两个坐标字母。",
		"dead stone {value} is not a point: write coordinates such as D4 or Q16 (no letter I), or two SGF letters such as dd.")
	ReasonDeadOffBoard = ledger.NewReason(ledger.Invalid, "DEAD_OFF_BOARD",
		"死子 {value} 不在 {size}×{size} 的棋盘上。", "dead stone {value} is off the {size}×{size} board.")
	ReasonDeadTooLong = ledger.NewReason(ledger.Invalid, "DEAD_TOO_LONG",
		"死子列表不能超过 {max} 字节。", "the list of dead stones is at most {max} bytes.")
	ReasonDeadTooMany = ledger.NewReason(ledger.Invalid, "DEAD_TOO_MANY",
		"死子最多列出 {max} 个点：棋盘上没有更多的点。", "list at most {max} dead stones: the board has no more points.")
	ReasonBadOption = ledger.NewReason(ledger.Invalid, "BAD_OPTION",
		"该选项与棋谱不符。", "the option does not fit the record.")
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

// Bounds on the dead stones a request may list: a point is written in at
// most three characters and a separator, and no board has more points
// than the largest. The list is checked against them before it is read.
const (
	MaxDeadPoints = rules.MaxSize * rules.MaxSize
	MaxDeadBytes  = 4 * MaxDeadPoints
)

// SplitDead splits a list of dead stones as typed in a form ("D4, Q16")
// and drops its repeats, refusing one too long to be a list of points
// before splitting it.
func SplitDead(s string) ([]string, error) {
	if len(s) > MaxDeadBytes {
		return nil, ReasonDeadTooLong.OnField("dead", "max", strconv.Itoa(MaxDeadBytes))
	}
	return distinctDead(rules.SplitPoints(s))
}

// distinctDead is the list of dead stones with repeats dropped, refused
// when its bytes or its distinct points exceed what any board can take.
func distinctDead(list []string) ([]string, error) {
	n := 0
	for _, d := range list {
		if n += len(d) + 1; n > MaxDeadBytes+1 {
			return nil, ReasonDeadTooLong.OnField("dead", "max", strconv.Itoa(MaxDeadBytes))
		}
	}
	seen := make(map[string]bool, len(list))
	out := make([]string, 0, len(list))
	for _, d := range list {
		if k := strings.TrimSpace(d); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	if len(out) > MaxDeadPoints {
		return nil, ReasonDeadTooMany.OnField("dead", "max", strconv.Itoa(MaxDeadPoints))
	}
	return out, nil
}

// ParseKomi reads a komi as typed; "" keeps the record's.
func ParseKomi(s string) (*float64, error) {
	k, err := rules.ParseKomi(s)
	if err != nil {
		return nil, ReasonKomi.OnField("komi", "value", strings.TrimSpace(s))
	}
	return k, nil
}

// Adjudicate replays and counts every game of the record; it stops with
// ctx's error once ctx is done.
func Adjudicate(ctx context.Context, in Request) ([]rules.Result, error) {
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
	dead, err := distinctDead(in.Dead)
	if err != nil {
		return nil, err
	}
	results, err := rules.AdjudicateSGFContext(ctx, in.SGF, in.File, rules.Options{Rules: rs, Komi: in.Komi, Dead: dead,
		Strict: in.Strict, DeadFromMarkup: in.DeadFromMarkup})
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil, err
	}
	if err != nil {
		return nil, refusal(err)
	}
	return results, nil
}

// refusal words an error of the rules engine by its code: its parameters
// are positions, counts and the values the record or the form gave, never
// the engine's English.
func refusal(err error) error {
	var (
		le *rules.LimitError
		oe *rules.OptionError
		pe *rules.PointError
		se *rules.SyntaxError
		re *rules.RecordError
		ge *rules.GameError
	)
	game := "1"
	if errors.As(err, &ge) {
		game = strconv.Itoa(ge.Game)
	}
	switch {
	case errors.As(err, &oe) && errors.As(err, &le) && le.What == rules.LimitDeadPoints:
		return ReasonDeadTooMany.OnField(oe.Option, "max", strconv.Itoa(le.Max))
	case errors.As(err, &le):
		return ReasonRecordTooBig.FieldWith("sgf", limitWords(le.What), ledger.Value("max", strconv.Itoa(le.Max)))
	case errors.As(err, &oe) && errors.As(err, &pe) && pe.OffBoard:
		return ReasonDeadOffBoard.OnField(oe.Option, "value", pe.Value, "size", strconv.Itoa(pe.Size))
	case errors.As(err, &oe) && errors.As(err, &pe):
		return ReasonDeadPoint.OnField(oe.Option, "value", pe.Value)
	case errors.As(err, &oe):
		return ReasonBadOption.OnField(oe.Option)
	case errors.As(err, &se):
		return syntaxRefusal(se)
	case errors.As(err, &re):
		return recordRefusal(re, game)
	}
	return ReasonRecordUnreadable.OnField("sgf")
}

func syntaxRefusal(se *rules.SyntaxError) error {
	offset := ledger.Value("offset", strconv.Itoa(se.Offset))
	found := ledger.Words("found", "文件结尾", "end of input")
	if r, _ := utf8.DecodeRuneInString(se.Found); se.Found != "" && r != utf8.RuneError && unicode.IsPrint(r) {
		found = ledger.Words("found", "“"+se.Found+"”", "'"+se.Found+"'")
	} else if se.Found != "" {
		// a byte that is no character of UTF-8: most likely a GBK file
		found = ledger.Words("found", "一个无法识别的字节（文件可能不是统一码编码，请以统一码另存后再提交）",
			"a byte that is not UTF-8 (the file may be in GBK: save it as UTF-8)")
	}
	switch se.Code {
	case rules.SyntaxOpenTree:
		return ReasonRecordOpenTree.FieldWith("sgf", offset, found)
	case rules.SyntaxFirstNode:
		return ReasonRecordFirstNode.FieldWith("sgf", offset, found)
	case rules.SyntaxCloseTree:
		return ReasonRecordCloseTree.FieldWith("sgf", offset)
	case rules.SyntaxAfterVariation:
		return ReasonRecordAfterVariation.FieldWith("sgf", offset)
	case rules.SyntaxNodeOrTree:
		return ReasonRecordNodeOrTree.FieldWith("sgf", offset, found)
	case rules.SyntaxPropertyID:
		return ReasonRecordPropertyID.FieldWith("sgf", offset, found)
	case rules.SyntaxPropertyValue:
		return ReasonRecordPropertyValue.FieldWith("sgf", offset, ledger.Value("property", se.Property), found)
	case rules.SyntaxCloseValue:
		return ReasonRecordCloseValue.FieldWith("sgf", offset)
	case rules.SyntaxNesting:
		return ReasonRecordNesting.FieldWith("sgf", offset, ledger.Value("max", strconv.Itoa(rules.MaxNesting)))
	}
	return ReasonRecordSyntax.FieldWith("sgf", offset)
}

func recordRefusal(re *rules.RecordError, game string) error {
	const f = "sgf"
	switch re.Code {
	case rules.RecordBoardSize:
		return ReasonRecordBoardSize.OnField(f, "game", game, "value", re.Value, "max", strconv.Itoa(rules.MaxSize))
	case rules.RecordKomi:
		return ReasonRecordKomi.OnField(f, "game", game, "value", re.Value)
	case rules.RecordHandicap:
		return ReasonRecordHandicap.OnField(f, "game", game, "value", re.Value)
	case rules.RecordPoint:
		return ReasonRecordPoint.OnField(f, "game", game, "property", re.Property, "value", re.Value)
	case rules.RecordCharset:
		return ReasonRecordCharset.OnField(f, "game", game, "value", re.Value)
	case rules.RecordHandicapPoints:
		return ReasonRecordHandicapPoints.OnField(f, "game", game, "size", strconv.Itoa(re.Size), "handicap", strconv.Itoa(re.Handicap))
	case rules.RecordHandicapStones:
		return ReasonRecordHandicapStones.OnField(f, "game", game, "handicap", strconv.Itoa(re.Handicap))
	}
	return ReasonRecordUnreadable.OnField(f)
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
		rules.LimitDeadPoints:     "死子数",
	}[l]
	if zh == "" {
		zh = string(l)
	}
	return ledger.Words("what", zh, string(l))
}
