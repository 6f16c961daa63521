// Command coldstart times how long rehearse takes from exec to its first answered /healthz,
// several times over, and prints each run and the median in ms.
//
// It polls from inside one process every millisecond instead of starting a client process per
// attempt: on two cores a loop of curl processes takes a core from the server it is timing,
// and adds curl's own start-up to the figure.
//
//	go run ./bench/coldstart -runs 5 -- BIN serve --addr 127.0.0.1:18093 --data DIR [--content DECK]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

func main() {
	runs := flag.Int("runs", 5, "cold starts to time")
	wait := flag.Duration("timeout", 30*time.Second, "give up on a start after this long")
	flag.Parse()
	args := flag.Args()
	if len(args) == 0 || *runs < 1 {
		fmt.Fprintln(os.Stderr, "usage: coldstart [-runs N] -- BIN serve --addr HOST:PORT ...")
		os.Exit(2)
	}
	url, err := healthURL(args)
	if err != nil {
		fmt.Fprintln(os.Stderr, "coldstart:", err)
		os.Exit(2)
	}
	var ms []int
	for range *runs {
		d, err := once(args, url, *wait)
		if err != nil {
			fmt.Fprintln(os.Stderr, "coldstart:", err)
			os.Exit(1)
		}
		ms = append(ms, int(d.Milliseconds()))
	}
	sorted := slices.Sorted(slices.Values(ms))
	fmt.Printf("%d ms (runs: %s)\n", sorted[(len(sorted)-1)/2], strings.Trim(fmt.Sprint(ms), "[]"))
}

// healthURL finds the --addr the command serves on.
func healthURL(args []string) (string, error) {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, "--addr="); ok {
			return "http://" + v + "/healthz", nil
		}
		if a == "--addr" && i+1 < len(args) {
			return "http://" + args[i+1] + "/healthz", nil
		}
	}
	return "", errors.New("the command needs --addr HOST:PORT, to know where to poll")
}

// once starts the command, polls url until it answers 200, then stops the command with SIGTERM
// and waits for it to exit, so the next start finds the data directory unlocked.
func once(args []string, url string, wait time.Duration) (time.Duration, error) {
	client := &http.Client{Timeout: time.Second}
	cmd := exec.Command(args[0], args[1:]...)
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		<-exited
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				d := time.Since(t0)
				stop()
				return d, nil
			}
		}
		select {
		case err := <-exited:
			return 0, fmt.Errorf("%s exited before answering: %v", args[0], err)
		case <-ctx.Done():
			stop()
			return 0, fmt.Errorf("no answer from %s within %s", url, wait)
		case <-tick.C:
		}
	}
}
