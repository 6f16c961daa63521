package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// The start-up work waits for the first response to be written, and runs once.
func TestAfterFirstResponseRunsOnceTheFirstAnswerIsOut(t *testing.T) {
	answered := make(chan struct{})
	ran := make(chan bool, 2)
	h := afterFirstResponse(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-ran:
			t.Error("the work ran before the first response was written")
		default:
		}
		w.Write([]byte("ok"))
		close(answered)
	}), time.Hour, func() {
		select {
		case <-answered:
			ran <- true
		default:
			ran <- false
		}
	})
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/healthz", nil))
	if !<-ran {
		t.Fatal("the work ran before the first response was written")
	}
	select {
	case <-ran:
		t.Fatal("the work ran twice")
	case <-time.After(100 * time.Millisecond):
	}
}

// A server nobody asks anything still does the work, once idle has passed.
func TestAfterFirstResponseRunsWhenNoRequestComes(t *testing.T) {
	ran := make(chan struct{})
	afterFirstResponse(http.NotFoundHandler(), time.Millisecond, func() { close(ran) })
	<-ran
}
