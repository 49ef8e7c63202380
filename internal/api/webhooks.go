package api

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/webhooks"
)

// WebhookServer serves dankyu.v1.WebhookService over the webhooks service;
// who may do what is the service's rule, its refusals mapped as any.
type WebhookServer struct {
	pb.UnimplementedWebhookServiceServer
	hooks *webhooks.Service
}

// NewWebhookServer serves hooks.
func NewWebhookServer(hooks *webhooks.Service) *WebhookServer { return &WebhookServer{hooks: hooks} }

func (s *WebhookServer) SubscribeWebhook(ctx context.Context, req *pb.SubscribeWebhookRequest) (*pb.SubscribeWebhookResponse, error) {
	sub, err := s.hooks.Subscribe(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetUrl(), req.GetActions())
	if err != nil {
		return nil, err
	}
	return &pb.SubscribeWebhookResponse{Webhook: webhookPB(sub), Secret: sub.Secret}, nil
}

func (s *WebhookServer) ListWebhooks(ctx context.Context, _ *pb.ListWebhooksRequest) (*pb.ListWebhooksResponse, error) {
	subs, err := s.hooks.Subscriptions(ctx, ActorFrom(ctx))
	if err != nil {
		return nil, err
	}
	resp := &pb.ListWebhooksResponse{}
	for _, sub := range subs {
		resp.Webhooks = append(resp.Webhooks, webhookPB(sub))
	}
	return resp, nil
}

func (s *WebhookServer) UnsubscribeWebhook(ctx context.Context, req *pb.UnsubscribeWebhookRequest) (*pb.UnsubscribeWebhookResponse, error) {
	sub, err := s.hooks.Unsubscribe(ctx, ActorFrom(ctx), idempotencyKey(ctx), req.GetId())
	if err != nil {
		return nil, err
	}
	return &pb.UnsubscribeWebhookResponse{Webhook: webhookPB(sub)}, nil
}

func (s *WebhookServer) ListWebhookAttempts(ctx context.Context, req *pb.ListWebhookAttemptsRequest) (*pb.ListWebhookAttemptsResponse, error) {
	as, err := s.hooks.Attempts(ctx, ActorFrom(ctx), req.GetId())
	if err != nil {
		return nil, err
	}
	resp := &pb.ListWebhookAttemptsResponse{}
	for _, a := range as {
		resp.Attempts = append(resp.Attempts, &pb.WebhookAttempt{DeliveryId: a.DeliveryID, EventId: a.EventID, Attempt: int32(a.Attempt),
			At: timestamppb.New(a.At), StatusCode: int32(a.StatusCode), Error: a.Error, Status: a.Status})
	}
	return resp, nil
}

// webhookPB is a subscription without its secret (the subscribe answer
// carries that beside it).
func webhookPB(s webhooks.Subscription) *pb.Webhook {
	return &pb.Webhook{Id: s.ID, Owner: s.Owner, Url: s.URL, Actions: s.Actions, CreatedAt: timestamppb.New(s.CreatedAt), Ended: s.Ended}
}
