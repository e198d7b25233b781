package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFeedClock: each stdin line sets the test clock; a line that is not a time ends
// the feed with an error and sets nothing.
func TestFeedClock(t *testing.T) {
	var got []uint64
	set := func(ns uint64) { got = append(got, ns) }
	var ack bytes.Buffer
	if err := feedClock(strings.NewReader("0\n1000000000\n 1013000000 \n"), &ack, set); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0] != 0 || got[1] != 1e9 || got[2] != 1013000000 {
		t.Errorf("clock set to %v", got)
	}
	if ack.String() != "clock 0\nclock 1000000000\nclock 1013000000\n" {
		t.Errorf("acknowledged %q", ack.String())
	}
	got = nil
	if err := feedClock(strings.NewReader("5\n-1\n7\n"), &ack, set); err == nil || len(got) != 1 {
		t.Errorf("bad line: %v, clock set to %v", err, got)
	}
}
