package rebalance

import "errors"

// Result is what a run produces: the rounds, a per-item timeline and the metrics.
type Result struct {
	Rounds   []Round        `json:"rounds"`
	Timeline []ItemTimeline `json:"timeline"`
	Metrics  Metrics        `json:"metrics"`
	Events   []EventMark    `json:"events"`
	Members  []string       `json:"members"`
	Items    []string       `json:"items"`
	// DurationMS is the simulated span, so views can scale without the scenario.
	DurationMS int64 `json:"duration_ms"`
	// ProcessingMS is the longest batch any member works between polls: how long after a round
	// its callbacks may still run, so views keep them in the round's episode.
	ProcessingMS int64 `json:"processing_ms,omitempty"`
	// Truncated is set when the run was too large to record every segment and round detail;
	// metrics are still exact. Later rounds then have no item lists, and when the timeline was
	// cut its segments stop at TruncatedAtMS.
	Truncated     bool  `json:"truncated,omitempty"`
	TruncatedAtMS int64 `json:"truncated_at_ms,omitempty"`
	// InvariantFailures lists every broken invariant (two owners, an unowned item in a stable
	// group, unbalanced counts). It is empty for every correct run.
	InvariantFailures []string `json:"invariant_failures,omitempty"`
}

// Round is one completed rebalance (classic) or one target assignment epoch (KIP-848).
type Round struct {
	Generation   int    `json:"generation"`
	Trigger      string `json:"trigger"`
	StartMS      int64  `json:"start_ms"`
	EndMS        int64  `json:"end_ms"`
	StopTheWorld bool   `json:"stop_the_world"`
	// Protocol is eager or cooperative (consumers; eager when any member runs EAGER), eager or
	// incremental (Connect), consumer (KIP-848); Assignor the one the group used, if any.
	Protocol   string              `json:"protocol"`
	Assignor   string              `json:"assignor,omitempty"`
	Assignment map[string][]string `json:"assignment"`
	Revoked    map[string][]string `json:"revoked"`
	Added      map[string][]string `json:"added"`
	// Parked lists Connect work held back by scheduled.rebalance.max.delay.ms after this round.
	Parked []string `json:"parked,omitempty"`
}

// ItemTimeline is the life of one partition, connector or task.
type ItemTimeline struct {
	Item     string    `json:"item"`
	Segments []Segment `json:"segments"`
}

// Segment states.
const (
	StateProcessing = "processing"
	StateRevoking   = "revoking"
	StateUnowned    = "unowned"
	StateStarting   = "starting"
)

// Segment is a span in one state. For "unowned", Owner is the member the group still assigns the
// item to (a crashed or stopped member whose session has not expired), or empty.
type Segment struct {
	FromMS int64  `json:"from_ms"`
	ToMS   int64  `json:"to_ms"`
	State  string `json:"state"`
	Owner  string `json:"owner"`
}

// Metrics summarise a run.
type Metrics struct {
	Rebalances             int     `json:"rebalances"`
	StopTheWorldRebalances int     `json:"stop_the_world_rebalances"`
	Availability           float64 `json:"availability"`
	DowntimeItemMS         int64   `json:"downtime_item_ms"`
	MaxPauseMS             int64   `json:"max_pause_ms"`
	Moved                  int     `json:"moved"`
	WastedMoves            int     `json:"wasted_moves"`
	TimeToStableMS         int64   `json:"time_to_stable_ms"`
	Violations             int     `json:"violations"`
	// ReprocessedRecords is what crashes and lost ownership make consumers process twice:
	// records_per_sec for each partition over the time since its last commit.
	ReprocessedRecords int64 `json:"reprocessed_records"`
	// PausedItems counts the items that stopped at least once after they had started; AllStoppedMS is how long every
	// item stopped at once (the group did no work at all). Both are read from the timeline, so
	// a truncated run counts them up to TruncatedAtMS.
	PausedItems  int   `json:"paused_items"`
	AllStoppedMS int64 `json:"all_stopped_ms"`
}

// EventMark is an event as it happened (rolling restarts and flaps are expanded), for markers.
type EventMark struct {
	AtMS   int64  `json:"at_ms"`
	Type   string `json:"type"`
	Member string `json:"member,omitempty"`
	Reason string `json:"reason,omitempty"` // why, for "rejected"
}

// ErrBudget is wrapped by the error of a run that was cancelled or went past one of its Limits'
// budgets; the message then says which budget and what to shrink.
var ErrBudget = errors.New("simulation stopped")
