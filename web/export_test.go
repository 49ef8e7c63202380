package web

// Messages exposes the message tables to the tests.
var Messages = messages
