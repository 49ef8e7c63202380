package tournaments

// AgeSnapshotForTest sets the snapshot an event's cached entry was read
// in, as if it had been read on a database whose transaction ids ran
// ahead of this one's (a primary whose last commits a promoted replica
// never received).
func (c *StandingsCache) AgeSnapshotForTest(eventID int64, snapshot string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.events[eventID]
	e.snapshot, e.own = snapshot, ""
	c.events[eventID] = e
}
