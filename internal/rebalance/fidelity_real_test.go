package rebalance

// The real side of the fidelity suite: franz-go clients (kgo) against franz-go's in-process
// fake cluster (kfake), inside a testing/synctest bubble over kfake's virtual network, so the
// clients' own timers run on a fake clock and a 20 s scenario takes a fraction of a second.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Timings of every fidelity run (the issue's): session 6 s, heartbeat 500 ms.
const (
	fidSession    = 6 * time.Second
	fidHeartbeat  = 500 * time.Millisecond
	fidPartitions = 12
	fidTopic      = "orders"
)

// callback is one Assigned/Revoked/Lost callback for one partition.
type callback struct {
	at     int64 // ms since the run started
	kind   string
	member string
	part   int32
}

// realRun is what one scenario did to real clients.
type realRun struct {
	calls []callback
	gens  map[int32]int64 // classic: generation -> first SyncGroup for it (ms)
	t0    int64           // the first scenario event; the group was stable before it
}

type realEvent struct {
	at     time.Duration
	kind   string // join, leave, restart, crash
	member string
	down   time.Duration
}

// fidClient is one consumer process.
type fidClient struct {
	cl     *kgo.Client
	dead   atomic.Bool  // crashed: its connections are cut and its callbacks ignored
	owned  atomic.Int32 // partitions it holds: a client with none has no batch to work on
	mu     sync.Mutex
	conns  []net.Conn
	cancel context.CancelFunc
	done   chan struct{}
}

// runReal runs the members and events against kfake and records the callbacks. proto is
// eager (range), cooperative (cooperative-sticky) or consumer (KIP-848, server-side range).
// proc > 0 makes each client a busy application: kgo's BlockRebalanceOnPoll holds every
// rebalance (callbacks, JoinGroup) from the moment a poll returns until the application has
// spent proc on what it got and calls AllowRebalance, as the Java consumer does from poll().
func runReal(t *testing.T, proto string, static bool, members []string, events []realEvent, dur, proc time.Duration) realRun {
	var out realRun
	// A watchdog on the real clock: should a client ever block outside the bubble's reach, fail
	// in seconds rather than at the test binary's 10-minute timeout.
	watchdog := time.AfterFunc(20*time.Second, func() { panic("fidelity run stuck for 20 s of real time") })
	defer watchdog.Stop()
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ms := func() int64 { return time.Since(start).Milliseconds() }
		vn := &kfake.VirtualNetwork{}
		c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.ListenFn(vn.Listen), kfake.SeedTopics(fidPartitions, fidTopic),
			kfake.GroupMinSessionTimeout(time.Second), kfake.BrokerConfigs(map[string]string{
				"group.consumer.heartbeat.interval.ms": fmt.Sprint(fidHeartbeat.Milliseconds()),
				"group.consumer.session.timeout.ms":    fmt.Sprint(fidSession.Milliseconds()),
			}))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var mu sync.Mutex
		var ended atomic.Bool // shutting down at the end: not part of the scenario
		out.gens = map[int32]int64{}
		c.ControlKey(int16(kmsg.SyncGroup), func(req kmsg.Request) (kmsg.Response, error, bool) {
			r := req.(*kmsg.SyncGroupRequest)
			if ended.Load() {
				return nil, nil, false
			}
			mu.Lock()
			if _, ok := out.gens[r.Generation]; !ok {
				out.gens[r.Generation] = ms()
			}
			mu.Unlock()
			return nil, nil, false
		})
		clients := map[string]*fidClient{}
		startClient := func(name string) {
			phase := slices.Index(members, name) // a joiner's is past every starting member's
			if phase < 0 {
				phase = len(members)
			}
			fc := &fidClient{done: make(chan struct{})}
			record := func(kind string) func(context.Context, *kgo.Client, map[string][]int32) {
				return func(_ context.Context, _ *kgo.Client, tps map[string][]int32) {
					if kind == "assigned" {
						fc.owned.Add(int32(len(tps[fidTopic])))
					} else {
						fc.owned.Add(-int32(len(tps[fidTopic])))
					}
					if fc.dead.Load() || ended.Load() {
						return
					}
					mu.Lock()
					for _, p := range tps[fidTopic] {
						out.calls = append(out.calls, callback{ms(), kind, name, p})
					}
					mu.Unlock()
				}
			}
			opts := []kgo.Opt{
				kgo.SeedBrokers(c.ListenAddrs()...), kgo.ClientID(name), // member ids then sort as names do
				kgo.Dialer(func(ctx context.Context, network, host string) (net.Conn, error) {
					if fc.dead.Load() {
						return nil, errors.New("process crashed")
					}
					conn, err := vn.DialContext(ctx, network, host)
					if err == nil {
						fc.mu.Lock()
						fc.conns = append(fc.conns, conn)
						fc.mu.Unlock()
					}
					return conn, err
				}),
				kgo.ConsumerGroup("g"), kgo.ConsumeTopics(fidTopic),
				kgo.SessionTimeout(fidSession), kgo.HeartbeatInterval(fidHeartbeat),
				kgo.OnPartitionsAssigned(record("assigned")), kgo.OnPartitionsRevoked(record("revoked")),
				kgo.OnPartitionsLost(record("lost")),
				kgo.FetchMaxWait(time.Second),
				// No auto-commit loop: it waits on a mutex (not durably blocking in synctest)
				// that another kgo goroutine can hold across a timer, which stalled about one
				// run in twelve. Nothing is produced, so there is nothing to commit anyway.
				kgo.DisableAutoCommit(),
			}
			switch proto {
			case "eager":
				opts = append(opts, kgo.Balancers(kgo.RangeBalancer()))
			case "eager-sticky":
				opts = append(opts, kgo.Balancers(kgo.StickyBalancer()))
			case "cooperative":
				opts = append(opts, kgo.Balancers(kgo.CooperativeStickyBalancer()))
			case "consumer":
				// StickyBalancer asks kfake's server-side "uniform" assignor.
				opts = append(opts, kgo.Balancers(kgo.StickyBalancer()), kgo.ServerSideBalancer())
			}
			if static {
				opts = append(opts, kgo.InstanceID(name))
			}
			if proc > 0 {
				opts = append(opts, kgo.BlockRebalanceOnPoll())
			}
			cl, err := kgo.NewClient(opts...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			fc.cl, fc.cancel = cl, cancel
			clients[name] = fc
			go func() {
				defer close(fc.done)
				if proc == 0 {
					for ctx.Err() == nil {
						cl.PollFetches(ctx)
					}
					return
				}
				defer cl.AllowRebalance()
				// Members that got their partitions together would poll in step for ever: each
				// one's first batch is cut short by its own share, so they poll at spread-out
				// moments of the batch, as busy consumers do.
				batch := proc * time.Duration(phase+1) / time.Duration(len(members)+1)
				for ctx.Err() == nil {
					// A busy consumer's poll returns at once with a batch (nothing is produced
					// here, so a short deadline stands in for the data), then the application
					// works on it with rebalances held.
					pctx, done := context.WithTimeout(ctx, time.Millisecond)
					cl.PollFetches(pctx)
					done()
					if fc.owned.Load() > 0 {
						select {
						case <-time.After(batch):
						case <-ctx.Done():
						}
						batch = proc
					}
					cl.AllowRebalance()
				}
			}()
		}
		stop := func(name string, crash bool) {
			fc := clients[name]
			delete(clients, name)
			mu.Lock()
			out.calls = append(out.calls, callback{ms(), "stop", name, -1})
			mu.Unlock()
			if crash {
				fc.dead.Store(true)
				fc.mu.Lock()
				for _, conn := range fc.conns {
					conn.Close()
				}
				fc.mu.Unlock()
			}
			fc.cancel()
			<-fc.done
			if crash {
				go fc.cl.Close() // its leave cannot reach the cluster; let it give up in the background
				return
			}
			fc.cl.Close()
		}
		// Members start a second apart, so the group forms the same way every run (who owned
		// what in its last JoinGroup decides whether kfake rebalances a static restart).
		for i, m := range members {
			time.Sleep(time.Until(start.Add(time.Duration(i) * time.Second)))
			startClient(m)
		}
		evs := slices.Clone(events)
		slices.SortFunc(evs, func(a, b realEvent) int { return int(a.at - b.at) })
		if len(evs) > 0 {
			out.t0 = evs[0].at.Milliseconds()
		}
		type restart struct {
			at   time.Duration
			name string
		}
		var pending []restart
		for _, ev := range evs {
			for len(pending) > 0 && pending[0].at <= ev.at {
				time.Sleep(time.Until(start.Add(pending[0].at)))
				startClient(pending[0].name)
				pending = pending[1:]
			}
			time.Sleep(time.Until(start.Add(ev.at)))
			switch ev.kind {
			case "join":
				startClient(ev.member)
			case "leave":
				stop(ev.member, false)
			case "crash":
				stop(ev.member, true)
			case "restart":
				stop(ev.member, false)
				pending = append(pending, restart{time.Since(start) + ev.down, ev.member})
				slices.SortFunc(pending, func(a, b restart) int { return int(a.at - b.at) })
			default:
				t.Fatalf("unknown event %q", ev.kind)
			}
		}
		for _, p := range pending {
			time.Sleep(time.Until(start.Add(p.at)))
			startClient(p.name)
		}
		time.Sleep(time.Until(start.Add(dur)))
		ended.Store(true)
		for name := range clients {
			fc := clients[name]
			fc.dead.Store(true) // the end of the run is not an event
			fc.cancel()
			<-fc.done
			fc.cl.Close()
		}
	})
	return out
}
