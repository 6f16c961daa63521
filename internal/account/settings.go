package account

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/study"
	"github.com/rehearse/rehearse/internal/views"
)

// Bounds of the study settings.
const (
	MinRetention      = 0.70
	MaxRetention      = 0.97
	MaxNewPerDay      = 200
	MaxKeepRecordings = 50
	// maxInterviewAhead bounds the interview date: further out it would change nothing for years.
	maxInterviewAhead = 3 * 365
)

// ParseSettingsForm checks the whole settings form over the user's current settings at now:
// the new settings, the recordings to keep per card (0 when the form has no such field, which
// keeps the current number), or the fields to correct.
func ParseSettingsForm(f views.SettingsForm, cur store.Settings, now time.Time) (store.Settings, int, *views.FormError) {
	st, fe := ParseSettings(f, cur)
	fe = parseInterviewDate(f.Interview, &st, now, fe)
	keep := 0
	if f.Keep != "" {
		n, err := strconv.Atoi(f.Keep)
		if err != nil || n < 1 || n > MaxKeepRecordings {
			fe = withField(fe, "keep_recordings", "Keep between 1 and 50 recordings per card.")
		}
		keep = n
	}
	return st, keep, fe
}

// withField adds a field's message to fe, making fe when it is the first.
func withField(fe *views.FormError, field, msg string) *views.FormError {
	if fe == nil {
		fe = &views.FormError{Form: "Please correct the fields marked below.", Fields: map[string]string{}}
	}
	fe.Fields[field] = msg
	return fe
}

// parseInterviewDate validates the optional interview date into st; "" removes it. A date
// before today is refused: a past date would mean nothing.
func parseInterviewDate(v string, st *store.Settings, now time.Time, fe *views.FormError) *views.FormError {
	if v == "" {
		st.InterviewDate = ""
		return fe
	}
	d, err := time.Parse(time.DateOnly, v)
	today := study.Day(now, Location(st.TimeZone))
	switch {
	case err != nil:
		return withField(fe, "interview_date", "Enter the date as YYYY-MM-DD, or leave it empty.")
	case d.Before(today):
		return withField(fe, "interview_date", "Choose today or a later date; clear the field to remove the date.")
	case d.After(today.AddDate(0, 0, maxInterviewAhead)):
		return withField(fe, "interview_date", "Choose a date within three years.")
	}
	st.InterviewDate = d.Format(time.DateOnly)
	return fe
}

// ParseSettings validates the form's study fields over the user's current settings, keeping
// the fields this form does not own (HideFromTeam belongs to the team page).
func ParseSettings(f views.SettingsForm, cur store.Settings) (store.Settings, *views.FormError) {
	st := cur
	fields := map[string]string{}
	ret, err := strconv.ParseFloat(strings.TrimSuffix(f.Retention, "%"), 64)
	if err == nil && ret > 1 { // "90" or "90%" means 0.90
		ret /= 100
	}
	ret = math.Round(ret*1000) / 1000 // keep 0.9 as typed, not 0.9000000001
	switch {
	case err != nil:
		fields["retention"] = "Enter the desired retention as a number such as 0.90."
	case !(ret >= MinRetention && ret <= MaxRetention): // also refuses NaN
		fields["retention"] = "Choose a desired retention between 0.70 and 0.97."
	default:
		st.DesiredRetention = ret
	}
	n, err := strconv.Atoi(f.NewPerDay)
	switch {
	case err != nil:
		fields["new_per_day"] = "Enter a whole number of new cards per day."
	case n < 0 || n > MaxNewPerDay:
		fields["new_per_day"] = "Choose between 0 and 200 new cards per day."
	default:
		st.NewPerDay = n
	}
	switch f.Depth {
	case "basics", "solid", "deeper":
		st.DefaultDepth = f.Depth
	default:
		fields["depth"] = "Choose basics, solid answer or go deeper."
	}
	if f.TimeZone == "" {
		fields["timezone"] = "Enter a time zone such as Europe/Berlin."
	} else if _, err := LoadZone(f.TimeZone); err != nil {
		fields["timezone"] = "“" + f.TimeZone + "” is not a time zone name; use one like Europe/Berlin or America/New_York."
	} else {
		st.TimeZone = f.TimeZone
	}
	if len(fields) > 0 {
		return cur, &views.FormError{Form: "Please correct the fields marked below.", Fields: fields}
	}
	return st, nil
}

// LoadZone loads an IANA zone by name, refusing "" and "Local" (the server's own zone, which
// means nothing to the user).
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" || len(name) > 64 {
		return nil, errors.New("not an IANA time zone name")
	}
	return time.LoadLocation(name)
}

// Location is the zone named in settings, UTC when unknown.
func Location(name string) *time.Location {
	if loc, err := LoadZone(name); err == nil {
		return loc
	}
	return time.UTC
}

// SettingsStore is what saving the settings writes (the store implements it).
type SettingsStore interface {
	DuePuller
	UpdateSettings(ctx context.Context, userID int64, s store.Settings) error
	SetRecordingsKeep(ctx context.Context, userID int64, keep int) error
}

// SaveSettings stores u's new settings and, when keep > 0, the recordings kept per card. A
// new interview date or zone pulls the cards due after the date in before it.
func SaveSettings(ctx context.Context, db SettingsStore, u *store.User, st store.Settings, keep int, now time.Time) error {
	if err := db.UpdateSettings(ctx, u.ID, st); err != nil {
		return err
	}
	if st.InterviewDate != u.Settings.InterviewDate || st.TimeZone != u.Settings.TimeZone {
		if err := PullInForDate(ctx, db, u.ID, Scheduler(st, Location(st.TimeZone)), now); err != nil {
			return err
		}
	}
	if keep > 0 {
		return db.SetRecordingsKeep(ctx, u.ID, keep)
	}
	return nil
}

// KeepReader reads how many recordings per card a user keeps (the store implements it).
type KeepReader interface {
	RecordingsKeep(ctx context.Context, userID int64) (int, error)
}

// SettingsFormFor is the settings form filled with u's settings, and the fit's state.
func SettingsFormFor(ctx context.Context, db KeepReader, fits Fitter, u *store.User, loc *time.Location) (views.SettingsForm, error) {
	st := u.Settings
	f := views.SettingsForm{
		Retention: strconv.FormatFloat(st.DesiredRetention, 'f', 2, 64),
		NewPerDay: strconv.Itoa(st.NewPerDay),
		Depth:     st.DefaultDepth,
		TimeZone:  st.TimeZone,
		Interview: st.InterviewDate,
	}
	keep, err := db.RecordingsKeep(ctx, u.ID)
	if err != nil {
		return f, err
	}
	f.Keep = strconv.Itoa(keep)
	f.Fit, err = fits.View(ctx, u, loc)
	return f, err
}
