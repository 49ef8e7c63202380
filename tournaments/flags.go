package tournaments

import (
	"maps"
	"slices"

	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
	"github.com/dankyu/dankyu/rules"
)

// Why a game's record was flagged for review, and what became of a
// dan-grade proposal: stored as a code with its parameters
// (tournament_games.flag_code and flag_params, tournament_proposals.note_code
// and note_params) and worded in the reader's language when shown
// (FlagMessage, GameRow.FlagText, Proposal.NoteText). They are declared as
// reasons so that the catalogue and the checks of both languages hold them;
// none is returned as a refusal. The English wording is also kept in the
// old text columns, which rows from before the codes have alone.
var (
	FlagRecordUnreadable = ledger.NewReason(ledger.Precondition, "FLAG_RECORD_UNREADABLE",
		"棋谱无法读取。", "the record could not be read.")
	FlagRecordSyntax = ledger.NewReason(ledger.Precondition, "FLAG_RECORD_SYNTAX",
		"棋谱第 {offset} 字节处无法读取（格式错误）。", "the record could not be read: a syntax error at byte {offset}.")
	FlagRecordTooBig = ledger.NewReason(ledger.Precondition, "FLAG_RECORD_TOO_BIG",
		"棋谱过大：{what}超过 {max}，无法裁定。", "the record is too big to adjudicate: it has more than {max} {what}.")
	FlagRecordGames = ledger.NewReason(ledger.Precondition, "FLAG_RECORD_GAMES",
		"棋谱文件中有 {games} 局，而不是一局。", "the file holds {games} games, not one.")
	FlagRecordWarnings = ledger.NewReason(ledger.Precondition, "FLAG_RECORD_WARNINGS",
		"按棋谱（立即提回劫、连走两手）应有警告 黑 {black} 次、白 {white} 次，报告的是黑 {reported_black} 次、白 {reported_white} 次。",
		"the record earns warnings {black}/{white} (ko recapture or a second move in a row), the reported ones are {reported_black}/{reported_white}.")
	FlagRecordUndecided = ledger.NewReason(ledger.Precondition, "FLAG_RECORD_UNDECIDED",
		"棋谱未分胜负（{end}）。", "the record does not decide the game ({end}).")
	FlagRecordDisagrees = ledger.NewReason(ledger.Precondition, "FLAG_RECORD_DISAGREES",
		"棋谱结果为 {adjudicated}，报告的结果为{reported}。", "the record gives {adjudicated}, the reported result is {reported}.")

	NoteProposed = ledger.NewReason(ledger.Precondition, "PROPOSAL_FILED",
		"已提出申请", "proposed")
	NoteGuest = ledger.NewReason(ledger.Precondition, "PROPOSAL_GUEST",
		"客座选手，未在系统中登记", "guest: not in the registry")
	NoteOtherProvince = ledger.NewReason(ledger.Precondition, "PROPOSAL_OTHER_PROVINCE",
		"在其他省份登记（{province}）", "registered in another province ({province})")
	NoteWithdrawn = ledger.NewReason(ledger.Precondition, "PROPOSAL_WITHDRAWN",
		"已撤回：{done}", "withdrawn: {done}")
)

// Message is a stored message: a code and its parameters by name, as the
// API and the event log carry them; the code's own package words it.
type Message struct {
	Code   string
	Params map[string]string
}

// message is a message of a declared reason; params are name, value pairs.
func message(r *ledger.Reason, params ...string) Message {
	m := Message{Code: r.Code(), Params: map[string]string{}}
	for i := 0; i+1 < len(params); i += 2 {
		m.Params[params[i]] = params[i+1]
	}
	return m
}

// messages are the codes this package stores, for wording them.
var messages = func() map[string]*ledger.Reason {
	out := map[string]*ledger.Reason{}
	for _, r := range []*ledger.Reason{FlagRecordUnreadable, FlagRecordSyntax, FlagRecordTooBig, FlagRecordGames, FlagRecordWarnings, FlagRecordUndecided,
		FlagRecordDisagrees, NoteProposed, NoteGuest, NoteOtherProvince, NoteWithdrawn} {
		out[r.Code()] = r
	}
	return out
}()

// FlagMessage words a stored code and its parameters in the language; ""
// for a code this package does not declare.
func FlagMessage(code string, params map[string]string, l ledger.Lang) string {
	r := messages[code]
	if r == nil {
		return ""
	}
	ps := make([]ledger.Param, 0, len(params))
	for _, name := range slices.Sorted(maps.Keys(params)) {
		ps = append(ps, paramWords(name, params[name]))
	}
	return r.With(ps...).Message(l)
}

// Text is the message in the language.
func (m Message) Text(l ledger.Lang) string { return FlagMessage(m.Code, m.Params, l) }

// paramWords words a parameter that names something (a result, how a game
// ended, a province …) in Chinese; other values read alike in both.
func paramWords(name, v string) ledger.Param {
	var zh string
	switch name {
	case "reported":
		zh = map[Result]string{BlackWins: "黑胜", WhiteWins: "白胜", Draw: "和棋", BlackForfeit: "黑胜（对方弃权）",
			WhiteForfeit: "白胜（对方弃权）", BothLose: "双方负", BothWin: "双方胜", BlackTimeLoss: "白胜（黑方超时判负）",
			WhiteTimeLoss: "黑胜（白方超时判负）", RuleDraw: "按补充规定判和"}[Result(v)]
	case "end":
		zh = map[string]string{rules.EndPasses: "双方停着", rules.EndResignation: "认输", rules.EndTime: "超时",
			rules.EndForfeit: "弃权", rules.EndAgreement: "双方同意的计数", rules.EndUnfinished: "未终局",
			rules.EndIllegal: "因违规着被拒绝"}[v]
	case "what":
		zh = map[rules.Limit]string{rules.LimitPropertyPoints: "一个属性中的点数", rules.LimitRecordPoints: "棋谱中的点数",
			rules.LimitNodes: "节点数", rules.LimitVariations: "变化数", rules.LimitGames: "对局数",
			rules.LimitValues: "属性值个数"}[rules.Limit(v)]
	case "done":
		zh = withdrawnZH(v)
	case "province":
		if pv, ok := registry.ProvinceByCode(v); ok {
			return ledger.Words(name, pv.NameZH, pv.NameEN)
		}
	}
	if zh == "" {
		return ledger.Value(name, v)
	}
	return ledger.Words(name, zh, v)
}

// FlagText is why the game is flagged, in the language: worded from its
// code, or, for a game flagged before codes were stored, the stored text.
func (g GameRow) FlagText(l ledger.Lang) string {
	if t := FlagMessage(g.FlagCode, g.FlagParams, l); t != "" {
		return t
	}
	return g.FlagReason
}

// NoteText is the proposal's note in the language: worded from its code;
// a refusal of the certification (its code is the refusal's) and a note
// from before codes were stored are shown as stored, in Chinese when kept.
func (p Proposal) NoteText(l ledger.Lang) string {
	if t := FlagMessage(p.NoteCode, p.NoteParams, l); t != "" {
		return t
	}
	if l == ledger.Chinese && p.NoteZH != "" {
		return p.NoteZH
	}
	return p.Note
}

// jsonParams is params as a jsonb column takes them: never NULL.
func jsonParams(params map[string]string) map[string]string {
	if params == nil {
		return map[string]string{}
	}
	return params
}
