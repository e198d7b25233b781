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

// TestPortRates: --port-rate gives its port a scheduler rate in bit/s; a rate for a port not
// configured, or not a positive number of Mbit/s, is refused by name.
func TestPortRates(t *testing.T) {
	ps, err := ports(map[string]string{"1": "veth1", "2": "veth2"}, map[string]string{"2": "12.5"})
	if err != nil || len(ps) != 2 || ps[0].RateBps != 0 || ps[1].RateBps != 12500000 || ps[1].Dev != "af_packet:veth2" {
		t.Fatalf("ports %+v, %v", ps, err)
	}
	for rates, want := range map[string]string{"3=10": "no such --port", "2=0": "want Mbit/s", "2=x": "want Mbit/s",
		"2=-1": "want Mbit/s"} {
		n, r, _ := strings.Cut(rates, "=")
		if _, err := ports(map[string]string{"2": "veth2"}, map[string]string{n: r}); err == nil ||
			!strings.Contains(err.Error(), want) {
			t.Errorf("--port-rate %s: %v, want %q", rates, err, want)
		}
	}
}
