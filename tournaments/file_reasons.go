package tournaments

import (
	"errors"
	"strconv"

	"github.com/dankyu/dankyu/ledger"
)

// The refusals of a tournament file (h-file, OpenGotha, pairgoth). Each is
// a code with the facts of the problem (the line, the cell, the value the
// file gives), so a Chinese page shows no English of the parsers (they
// were once one UNREADABLE_FILE with the parser's English as {detail}).
// The readers return them inside a *FormatError.
var (
	ReasonUnreadableFile = ledger.NewReason(ledger.Invalid, "UNREADABLE_FILE",
		"无法读取比赛文件。", "the tournament file cannot be read.")
	ReasonFileEmpty = ledger.NewReason(ledger.Invalid, "FILE_EMPTY",
		"比赛文件是空的。", "the tournament file is empty.")
	ReasonFileTooLarge = ledger.NewReason(ledger.Invalid, "FILE_TOO_LARGE",
		"比赛文件有 {bytes} 字节，最多读取 {max} 字节。", "the tournament file has {bytes} bytes: at most {max} are read.")
	ReasonFileTooManyPlayers = ledger.NewReason(ledger.Invalid, "FILE_TOO_MANY_PLAYERS",
		"比赛文件有 {players} 名棋手，最多读取 {max} 名。", "the tournament file has {players} players: at most {max} are read.")
	ReasonFileTooManyGames = ledger.NewReason(ledger.Invalid, "FILE_TOO_MANY_GAMES",
		"比赛文件有 {games} 局对局，最多读取 {max} 局。", "the tournament file has {games} games: at most {max} are read.")
	ReasonFileFormat = ledger.NewReason(ledger.Invalid, "FILE_FORMAT",
		"不认识比赛文件格式“{format}”。", "format {format}: want h9, opengotha or pairgoth.")
	ReasonFileEncoding = ledger.NewReason(ledger.Invalid, "FILE_ENCODING",
		"比赛文件无法按 {encoding} 编码读取。", "the tournament file cannot be decoded as {encoding}.")
	ReasonFileEncodingUnknown = ledger.NewReason(ledger.Invalid, "FILE_ENCODING_UNKNOWN",
		"不认识文字编码“{encoding}”。", "encoding {encoding}: want utf-8, latin1, gbk, windows-1251 or another WHATWG name.")
	ReasonFileSyntax = ledger.NewReason(ledger.Invalid, "FILE_SYNTAX",
		"第 {line} 行：文件的格式有误，无法解析。", "line {line}: the file cannot be parsed (broken XML or JSON).")
	ReasonFileValueType = ledger.NewReason(ledger.Invalid, "FILE_VALUE_TYPE",
		"第 {line} 行：字段 {field} 的值类型不对。", "line {line}: the value of {field} has the wrong type.")
	ReasonFilePinWithoutPlayer = ledger.NewReason(ledger.Invalid, "FILE_PIN_WITHOUT_PLAYER",
		"第 {line} 行在竖线后有欧洲围棋数据库编号，却没有棋手。", "line {line}: a line with an EGD PIN but no player.")
	ReasonFileNoPlayers = ledger.NewReason(ledger.Invalid, "FILE_NO_PLAYERS",
		"读到第 {line} 行为止，文件中没有一行是棋手。", "line {line}: the file has no player lines.")
	ReasonFileNoRank = ledger.NewReason(ledger.Invalid, "FILE_NO_RANK",
		"第 {line} 行第 {column} 列：对局记录之前没有姓名和段级位（如 2D、14K）。",
		"line {line}: no name followed by a rank such as 2D or 14K before the round entries (column {column}).")
	ReasonFileOpponentRange = ledger.NewReason(ledger.Invalid, "FILE_OPPONENT_RANGE",
		"第 {line} 行第 {column} 列（{cell}）：第 {round} 轮的对手 {opponent} 不是另一名棋手的行号（1–{players}）。",
		"line {line}, round {round}, column {column} ({cell}): opponent {opponent} is not another player's line (1–{players}).")
	ReasonFileOpponentMismatch = ledger.NewReason(ledger.Invalid, "FILE_OPPONENT_MISMATCH",
		"第 {line} 行第 {column} 列（{cell}）：第 {round} 轮的对手是第 {opponent} 名棋手，但该棋手第 {round} 轮的对手是第 {other} 名。",
		"line {line}, round {round}, column {column} ({cell}): says it played line {opponent}, whose round {round} names line {other}.")
	ReasonFileNotATournament = ledger.NewReason(ledger.Invalid, "FILE_NOT_A_TOURNAMENT",
		"文件中没有赛事的根元素，不是可读取的比赛文件。", "not an OpenGotha file: it has no <Tournament> element.")
	ReasonFileNotOpenGotha = ledger.NewReason(ledger.Invalid, "FILE_NOT_OPENGOTHA",
		"第 {line} 行：文件的根元素 <{root}> 及其内容不是 {reader} 比赛文件的格式，无法读取；请从写这个文件的程序导出欧洲围棋数据库成绩文件后再导入。",
		"line {line}: a file whose root <{root}> and content are not an {reader} tournament file: it is not read; export an EGD results file (h9) from the program that wrote it and import that.")
	ReasonFileOtherProgram = ledger.NewReason(ledger.Invalid, "FILE_OTHER_PROGRAM",
		"第 {line} 行：这是 {program}（版本 {version}）写的文件，根元素是 <{root}>，但不是 {reader} 比赛文件，无法读取；请从 {program} 导出欧洲围棋数据库成绩文件后再导入。",
		"line {line}: a file written by {program} (version {version}) with root <{root}>, not an {reader} tournament file: it is not read; export an EGD results file (h9) from {program} and import that.")
	ReasonFileNoGames = ledger.NewReason(ledger.Invalid, "FILE_NO_GAMES",
		"比赛文件中没有任何对局或轮空（名单上有 {players} 名棋手），没有可导入的内容。",
		"the tournament file has no game and no bye ({players} players listed): there is nothing to import.")
	ReasonFilePlayerNoName = ledger.NewReason(ledger.Invalid, "FILE_PLAYER_NO_NAME",
		"第 {line} 行：有一名棋手没有姓名。", "line {line}: a player has no name.")
	ReasonFilePlayerTwice = ledger.NewReason(ledger.Invalid, "FILE_PLAYER_TWICE",
		"第 {line} 行：棋手 {name} 出现了两次。", "line {line}: player {name} appears twice.")
	ReasonFilePlayerID = ledger.NewReason(ledger.Invalid, "FILE_PLAYER_ID",
		"第 {line} 行：编号为 {id} 的棋手没有有效编号或姓名。", "line {line}: player {id} has no id or no name.")
	ReasonFilePlayerIDTwice = ledger.NewReason(ledger.Invalid, "FILE_PLAYER_ID_TWICE",
		"第 {line} 行：棋手编号 {id} 出现了两次。", "line {line}: player id {id} appears twice.")
	ReasonFileGameRound = ledger.NewReason(ledger.Invalid, "FILE_GAME_ROUND",
		"第 {line} 行：对局没有 1 到 {max} 之间的轮次。", "line {line}: a game without a round number (1–{max}).")
	ReasonFileGamePlayers = ledger.NewReason(ledger.Invalid, "FILE_GAME_PLAYERS",
		"第 {line} 行：第 {round} 轮 {black} 与 {white} 的对局，双方须是棋手名单中的两名不同棋手。",
		"line {line}: round {round}: the game between {black} and {white} names a player not in the file's players, or one twice.")
	ReasonFileResult = ledger.NewReason(ledger.Invalid, "FILE_RESULT",
		"第 {line} 行：第 {round} 轮的对局结果“{result}”无法识别。", "line {line}: round {round}: unknown result {result}.")
	ReasonFileBye = ledger.NewReason(ledger.Invalid, "FILE_BYE",
		"第 {line} 行：第 {round} 轮给 {player} 的轮空无法识别：棋手不在名单中，或轮次无效。",
		"line {line}: bye for {player} in round {round}: unknown player or round.")
	ReasonFileTeamEvent = ledger.NewReason(ledger.Invalid, "FILE_TEAM_EVENT",
		"第 {line} 行：这是 {type} 类型的赛事，只能读取个人赛。", "line {line}: a {type} event: only individual events are read.")
	ReasonFileRounds = ledger.NewReason(ledger.Invalid, "FILE_ROUNDS",
		"第 {line} 行：文件有 {rounds} 轮，最多读取 {max} 轮。", "line {line}: {rounds} rounds: at most {max} are read.")
	ReasonFilePlaysTwice = ledger.NewReason(ledger.Invalid, "FILE_PLAYS_TWICE",
		"第 {line} 行：第 {round} 轮 {name} 下了两局。", "line {line}: round {round}: {name} plays twice.")
)

// FormatError says where in a file the reading stopped and why: a reason
// above with its parameters (the line among them when the reason names
// it). Its Error() is the English, for the command line and logs.
type FormatError struct {
	Format string // "h9", "opengotha", "pairgoth"; "" before the format is known
	Line   int    // where the reading stopped; 0 for a file refused as a whole (its size)
	Reason *ledger.Reason
	Params []ledger.Param
}

func (e *FormatError) Error() string {
	msg := (&ledger.Error{Reason: e.Reason, Params: e.Params}).Message(ledger.English)
	if e.Format == "" {
		return msg
	}
	return e.Format + ": " + msg
}

// Refusal is the error as a refusal of the uploaded file.
func (e *FormatError) Refusal() *ledger.Error { return e.Reason.FieldWith("file", e.Params...) }

// fileError is a FormatError at a line; params are name, value pairs (the
// line is added), values quoted from the file clipped.
func fileError(format string, line int, r *ledger.Reason, params ...string) *FormatError {
	e := &FormatError{Format: format, Line: line, Reason: r, Params: []ledger.Param{ledger.Value("line", strconv.Itoa(line))}}
	for i := 0; i+1 < len(params); i += 2 {
		e.Params = append(e.Params, ledger.Value(params[i], clip(params[i+1])))
	}
	return e
}

// wholeFile is a FormatError of the file as a whole, named by no line.
func wholeFile(format string, line int, r *ledger.Reason, params ...string) *FormatError {
	e := fileError(format, line, r, params...)
	e.Params = e.Params[1:]
	return e
}

// fileRefusal words what reading a file returned as a refusal of the
// upload: the reader's reason, or the generic one (with no parser text)
// for anything else.
func fileRefusal(err error) *ledger.Error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe.Refusal()
	}
	return ReasonUnreadableFile.OnField("file")
}

// inFormat names the format of a FormatError made before the format was
// known (decoding the text); any other error becomes the generic refusal.
func inFormat(err error, format string) *FormatError {
	var fe *FormatError
	if !errors.As(err, &fe) {
		return wholeFile(format, 1, ReasonUnreadableFile)
	}
	fe.Format = format
	return fe
}
