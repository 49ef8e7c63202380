package kit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

func table(feature string, kv ...string) Table {
	return Table{Feature: feature, Texts: func(Lang) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}}
}

func TestMergeTables(t *testing.T) {
	tests := []struct {
		name   string
		tables []Table
		want   map[string]string
		errHas []string // the error names these; nil: no error
	}{
		{"none", nil, map[string]string{}, nil},
		{"distinct keys", []Table{table("a", "x", "1", "y", "2"), table("b", "z", "3")}, map[string]string{"x": "1", "y": "2", "z": "3"}, nil},
		{"a key in two tables", []Table{table("registry", "end", "终局方式"), table("tournaments", "end", "结束")}, nil,
			[]string{`"end"`, "registry", "tournaments"}},
		{"every duplicate named", []Table{table("a", "x", "1", "y", "2"), table("b", "x", "1"), table("c", "y", "3")}, nil,
			[]string{`"x" is in both the a and the b table`, `"y" is in both the a and the c table`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := MergeTables(Chinese, tt.tables)
			if tt.errHas == nil {
				if err != nil || len(got) != len(tt.want) {
					t.Fatalf("got %v, %v; want %v", got, err, tt.want)
				}
				for k, v := range tt.want {
					if got[k] != v {
						t.Errorf("%s = %q, want %q", k, got[k], v)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("merged to %v, want an error", got)
			}
			for _, s := range tt.errHas {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %s", err, s)
				}
			}
		})
	}
}

// fakeStore is the kernel as a site needs it, without a database.
type fakeStore struct{}

func (fakeStore) SharedSecret(context.Context, string) ([]byte, error) { return []byte("secret"), nil }
func (fakeStore) Now() time.Time                                       { return time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC) }
func (fakeStore) ClaimFormToken(context.Context, []byte, string, time.Time) (ledger.FormTokenUse, error) {
	return ledger.FormTokenUse{First: true}, nil
}
func (fakeStore) SettleFormToken(context.Context, []byte, string) error { return nil }

// TestNewSiteFailsOnADuplicateKey: a site is not made over tables that
// clash, so the portal does not start.
func TestNewSiteFailsOnADuplicateKey(t *testing.T) {
	_, err := NewSite(context.Background(), Config{Store: fakeStore{}, Tables: []Table{table("a", "end", "x"), table("b", "end", "y")}})
	if err == nil || !strings.Contains(err.Error(), `"end"`) {
		t.Fatalf("NewSite over clashing tables: %v", err)
	}
	if _, err := NewSite(context.Background(), Config{Store: fakeStore{}, Tables: []Table{table("a", "end", "x")}}); err != nil {
		t.Fatal(err)
	}
}
