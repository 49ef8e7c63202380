package webhooks

import "github.com/dankyu/dankyu/ledger"

// The refusals of the webhooks, in both languages.
var (
	ReasonWebhookForbidden = ledger.NewReason(ledger.PermissionDenied, "WEBHOOK_FORBIDDEN",
		"只有棋协机构和工作人员可以订阅事件推送。", "only agencies and staff subscribe to webhooks.")
	ReasonWebhookURL = ledger.NewReason(ledger.Invalid, "WEBHOOK_URL",
		"“{value}”不是可推送的网址：请填写以 https:// 或 http:// 开头的完整网址（不超过 500 个字符）。",
		"“{value}” is not a URL to deliver to: give a full https:// or http:// address (at most 500 characters).")
	ReasonWebhookInside = ledger.NewReason(ledger.Invalid, "WEBHOOK_INSIDE_ADDRESS",
		"“{value}”指向本机或内部网络地址：登记系统只向公网地址推送，请填写接收程序的公网网址。",
		"“{value}” names this machine or an inside network: the registry delivers to public addresses only; give the receiver's public URL.")
	ReasonWebhookActions = ledger.NewReason(ledger.Invalid, "WEBHOOK_ACTIONS",
		"“{value}”不是可订阅的事件：可选 notice.published、objection.lodged、notice.completed、certificate.issued、certificate.revoked、certificate.reissued。",
		"“{value}” is not an event to subscribe to: the events are notice.published, objection.lodged, notice.completed, certificate.issued, certificate.revoked and certificate.reissued.")
	ReasonWebhookNoActions = ledger.NewReason(ledger.Invalid, "WEBHOOK_NO_ACTIONS",
		"请至少选择一种要推送的事件。", "Choose at least one event to be told of.")
	ReasonNoSuchWebhook = ledger.NewReason(ledger.NotFound, "WEBHOOK_NO_SUCH_SUBSCRIPTION",
		"没有编号为 {id} 的事件推送订阅。", "there is no webhook subscription {id}.")
)
