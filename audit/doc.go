// Package audit is the association's annual audit (年审) of every
// first-level agency: "从2005年起，协会对一级代理机构实行年审制度…对于弄虚作假、
// 滥发证书或不作记录的单位加以监管…对于长期不作为的一级代理机构也会采取相应措施",
// and agencies collect their ordered certificates "在通过了年度审核后".
//
// Staff open a year's audits for all agencies at once (OpenYear). The year
// is a setting (default 1 December of the year before to 30 November,
// Beijing time). Opening reads the event log once, up to its present
// position (the newest event id, stored with every audit), and freezes each
// agency's scorecard: twenty indicators in four families (滥发证书, 弄虚作假,
// 不作记录, 长期不作为), each with its value, the national median and spread
// (1.4826 × MAD) and a green/amber/red mark under a threshold that is
// absolute or relative to the median (see Definitions). Every number is
// computed from the log as of that position, with only the never-changing
// columns of tournaments read beside it, so VerifyYear recomputes the same
// numbers after any later certificate, revocation, edit or result change;
// IndicatorItems lists what a number counts, with the log's rows.
//
// A red mark opens a finding; staff add their own, confirm or dismiss them,
// and the agency answers its own. Staff rule: pass, pass with conditions (a
// cap on next year's stock, supervision until a date, measures) or fail; a
// pass needs every finding decided. The Service is the certificates'
// GrantGate: a grant of year Y+1 stock is FAILED_PRECONDITION until the
// year-Y audit passed, or staff recorded the logged first-year decision
// (Bootstrap) for that agency and stock year; a grant above a conditional
// pass's cap is refused (not clamped), so staff lower it and grant again.
package audit
