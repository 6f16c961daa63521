package rebalance

// A Scenario names kinds, protocols, assignors and event types as strings (its JSON form);
// the engine parses them once into these small types.

type kind uint8

const (
	kindConsumer kind = iota
	kindConnect
)

type protocol uint8

const (
	protoEager       protocol = iota
	protoCooperative          // KIP-429 incremental cooperative consumers
	protoConsumer             // KIP-848 (group.protocol=consumer)
	protoIncremental          // Connect's KIP-415
)

type assignor uint8

const (
	asNone assignor = iota // Connect: the leader's own logic
	asRange
	asRoundRobin
	asSticky
	asCoopSticky
	asUniform
)

var assignorNames = map[string]assignor{"range": asRange, "roundrobin": asRoundRobin, "sticky": asSticky,
	"cooperative-sticky": asCoopSticky, "uniform": asUniform}

type evType uint8

const (
	evJoin evType = iota
	evLeave
	evCrash
	evRestart
	evRollingRestart
	evFlap
	evAddPartitions
	evSetTasks
	evSlowPoll
)

// eventTypes is in evType order.
var eventTypes = []string{"join", "leave", "crash", "restart", "rolling_restart", "flap", "add_partitions", "set_tasks", "slow_poll"}

func parseKind(k string) kind {
	if k == "connect" {
		return kindConnect
	}
	return kindConsumer
}

func parseProtocol(p string) protocol {
	return map[string]protocol{"eager": protoEager, "cooperative": protoCooperative, "consumer": protoConsumer, "incremental": protoIncremental}[p]
}

func parseEvType(t string) evType {
	for i, n := range eventTypes {
		if n == t {
			return evType(i)
		}
	}
	return evJoin // unreachable after Validate
}
