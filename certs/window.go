package certs

import (
	"fmt"
	"strconv"
	"time"

	"github.com/dankyu/dankyu/ledger"
)

// OrderStockYear returns the year whose stock an agency orders at t. Orders
// are taken only from 1 to 31 December in China Standard Time, for the next
// year; at any other time the error says when the window opens.
func OrderStockYear(t time.Time) (int, error) {
	c := t.In(ledger.ChinaTime)
	if c.Month() == time.December {
		return c.Year() + 1, nil
	}
	return 0, ReasonOrderWindowClosed.New("opens", fmt.Sprintf("%d-12-01", c.Year()), "year", strconv.Itoa(c.Year()+1))
}
