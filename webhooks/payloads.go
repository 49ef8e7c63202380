package webhooks

import "github.com/dankyu/dankyu/ledger"

// Payloads are the payload types of the webhooks' actions, one value of
// each (internal/archtest checks the log's readers against them).
func Payloads() []ledger.Payload {
	return []ledger.Payload{SubscribedPayload{}, UnsubscribedPayload{}}
}

// SubscribedPayload is webhook.subscribed's payload: a URL subscribed to
// kinds of events (the secret is never logged).
type SubscribedPayload struct {
	Actions []string `json:"actions"`
	URL     string   `json:"url"`
}

func (SubscribedPayload) Action() string { return "webhook.subscribed" }

// UnsubscribedPayload is webhook.unsubscribed's payload.
type UnsubscribedPayload struct {
	URL string `json:"url"`
}

func (UnsubscribedPayload) Action() string { return "webhook.unsubscribed" }
