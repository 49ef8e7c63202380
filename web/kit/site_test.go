package kit

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dankyu/dankyu/ledger"
)

// TestGetAnswersErrorsInOnePlace: a GET handler that returns an error
// gets the site's one answer to it, by the error's kind.
func TestGetAnswersErrorsInOnePlace(t *testing.T) {
	words := table("site", "not_found", "未找到", "error", "出错了", "error_text", "系统暂时无法回答")
	s, err := NewSite(context.Background(), Config{Store: fakeStore{}, Tables: []Table{words}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		err  error
		code int
		want string
	}{
		{"the page", nil, http.StatusOK, "the page"},
		{"not found", ledger.ErrNotFound, http.StatusNotFound, "未找到"},
		{"wrapped not found", fmt.Errorf("player 7: %w", ledger.ErrNotFound), http.StatusNotFound, "未找到"},
		{"a failure, its text not shown", errors.New("pool closed"), http.StatusInternalServerError, "系统暂时无法回答"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := s.Get(func(w http.ResponseWriter, r *http.Request) error {
				if tt.err != nil {
					return tt.err
				}
				_, _ = w.Write([]byte("the page"))
				return nil
			})
			rec := httptest.NewRecorder()
			h(rec, httptest.NewRequest("GET", "/x", nil))
			if rec.Code != tt.code || !strings.Contains(rec.Body.String(), tt.want) || strings.Contains(rec.Body.String(), "pool closed") {
				t.Errorf("%d %q, want %d with %q", rec.Code, rec.Body.String(), tt.code, tt.want)
			}
		})
	}
}
