package interview

import (
	"sort"
	"time"
)

// Take is one recorded answer, as the progress page measures speaking.
type Take struct {
	Topic         string
	At            time.Time
	Spoken        time.Duration // voiced time
	Target        time.Duration
	Points, Heard int // key points of the depth answered and those heard; 0, 0 when not checked
}

// TopicSpeaking is how a topic is spoken.
type TopicSpeaking struct {
	Topic          string
	Takes, OnTime  int
	Spoken, Target time.Duration // summed over the takes
	Points, Heard  int
	Recall         float64 // mean chance of recall over the topic's cards now (0..1)
	Readiness      float64 // Readiness of the topic (0..1)
}

// WeekHeard is the key points heard in the recordings of one week.
type WeekHeard struct {
	Start         time.Time
	Points, Heard int
}

// Speaking sums up a user's recordings.
type Speaking struct {
	Takes, OnTime int
	Topics        []TopicSpeaking // by topic name
	Weeks         []WeekHeard     // oldest first, weeks with checked recordings only
}

// ReadinessRule states how readiness is computed; the progress page shows it.
const ReadinessRule = "Readiness of a topic = recall × speaking. Recall is the mean chance, now, that you remember its cards (0 for cards never studied). " +
	"Speaking is the mean of your on-time rate (voiced time within 20 % of the target) and the share of key points heard in your checked recordings, or the on-time rate alone when none was checked; a topic never recorded has speaking 0."

// Readiness combines recall with speaking (see ReadinessRule).
func Readiness(recall float64, t TopicSpeaking) float64 {
	if t.Takes == 0 {
		return 0
	}
	speaking := float64(t.OnTime) / float64(t.Takes)
	if t.Points > 0 {
		speaking = (speaking + float64(t.Heard)/float64(t.Points)) / 2
	}
	return recall * speaking
}

// SpeakingStats measures takes by topic and by week (weeks start on the Monday of at's day in
// loc); recall gives each topic's mean recall, and topics with recall but no takes are listed
// too, at speaking 0.
func SpeakingStats(takes []Take, recall map[string]float64, loc *time.Location) Speaking {
	var out Speaking
	byTopic := map[string]*TopicSpeaking{}
	topic := func(name string) *TopicSpeaking {
		if byTopic[name] == nil {
			byTopic[name] = &TopicSpeaking{Topic: name}
		}
		return byTopic[name]
	}
	weeks := map[time.Time]*WeekHeard{}
	for _, tk := range takes {
		t := topic(tk.Topic)
		t.Takes++
		t.Spoken += tk.Spoken
		t.Target += tk.Target
		t.Points += tk.Points
		t.Heard += tk.Heard
		out.Takes++
		if TimeFactor(tk.Spoken, tk.Target) == 1 {
			t.OnTime++
			out.OnTime++
		}
		if tk.Points > 0 {
			d := tk.At.In(loc)
			start := time.Date(d.Year(), d.Month(), d.Day()-(int(d.Weekday())+6)%7, 0, 0, 0, 0, loc)
			if weeks[start] == nil {
				weeks[start] = &WeekHeard{Start: start}
			}
			weeks[start].Points += tk.Points
			weeks[start].Heard += tk.Heard
		}
	}
	for name := range recall {
		topic(name)
	}
	for _, t := range byTopic {
		t.Recall = recall[t.Topic]
		t.Readiness = Readiness(t.Recall, *t)
		out.Topics = append(out.Topics, *t)
	}
	sort.Slice(out.Topics, func(i, j int) bool { return out.Topics[i].Topic < out.Topics[j].Topic })
	for _, w := range weeks {
		out.Weeks = append(out.Weeks, *w)
	}
	sort.Slice(out.Weeks, func(i, j int) bool { return out.Weeks[i].Start.Before(out.Weeks[j].Start) })
	return out
}
