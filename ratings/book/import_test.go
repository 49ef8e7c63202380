package book_test

import (
	"context"
	"os"
	"testing"

	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ratings/book"
	"github.com/dankyu/dankyu/tournaments"
)

// TestImportedEventIsRated imports real tournament files (every player a
// guest) and finishes them: every game played on the board is rated, games
// won by default are not, and guests are known by their EGD PINs where
// the file has them (else by name and country).
func TestImportedEventIsRated(t *testing.T) {
	for _, tt := range []struct {
		file             string
		players, withPin int
		defaults         int
	}{
		{"bogazici2024.xml", 39, 34, 0},
		{"wagc1981.h", 32, 0, 1},
	} {
		t.Run(tt.file, func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t)
			data, err := os.ReadFile("../../tournaments/testdata/real/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			org := fixture.Agency("110")
			dry, err := e.ts.ImportEvent(ctx, org, "", tournaments.ImportInput{Data: data, Level: "city"})
			if err != nil {
				t.Fatal(err)
			}
			var guests []int
			pins := map[string]string{}
			for _, p := range dry.Players {
				guests = append(guests, p.Index)
				pins[p.Name] = p.EGDPin
			}
			res, err := e.ts.ImportEvent(ctx, org, "import", tournaments.ImportInput{Data: data, Level: "city", Guests: guests, Commit: true})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := e.ts.Finish(ctx, org, "finish", res.Event.ID)
			if err != nil {
				t.Fatal(err)
			}
			onBoard, byDefault := 0, 0
			for _, r := range rep.Rounds {
				for _, g := range r.Games {
					switch g.Result {
					case tournaments.BlackWins, tournaments.WhiteWins, tournaments.Draw:
						onBoard++
					default:
						byDefault++
					}
				}
			}
			list, err := e.book.ListRatings(ctx, book.ListQuery{})
			if err != nil {
				t.Fatal(err)
			}
			rated, withPin := 0, 0
			for _, r := range list {
				rated += r.Games
				if r.PlayerID != 0 {
					t.Fatalf("%s rated as a registered player", r.Name)
				}
				if r.EGDPin != pins[r.Name] {
					t.Errorf("%s: PIN %q, want %q", r.Name, r.EGDPin, pins[r.Name])
				}
				if r.EGDPin != "" {
					withPin++
				}
			}
			if rated != 2*onBoard || onBoard == 0 || byDefault != tt.defaults {
				t.Fatalf("%d rated player-games, want twice the %d games on the board; %d by default, want %d", rated, onBoard, byDefault, tt.defaults)
			}
			if len(list) != tt.players || withPin != tt.withPin {
				t.Fatalf("%d guests rated, %d with a PIN; want %d and %d", len(list), withPin, tt.players, tt.withPin)
			}
		})
	}
}
