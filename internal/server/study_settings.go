package server

import (
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// Bounds of the study settings.
const (
	minRetention = 0.70
	maxRetention = 0.97
	maxNewPerDay = 200

	maxKeepRecordings = 50
)

func (s *Server) settingsPage(w http.ResponseWriter, r *http.Request) {
	st := userFrom(r.Context()).Settings
	f := views.SettingsForm{
		Retention: strconv.FormatFloat(st.DesiredRetention, 'f', 2, 64),
		NewPerDay: strconv.Itoa(st.NewPerDay),
		Depth:     st.DefaultDepth,
		TimeZone:  st.TimeZone,
		Interview: st.InterviewDate,
		Saved:     r.URL.Query().Get("saved") == "1",
	}
	keep, err := s.db.RecordingsKeep(r.Context(), userFrom(r.Context()).ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	f.Keep = strconv.Itoa(keep)
	if f.Fit, err = s.fitView(r.Context(), userFrom(r.Context())); err != nil {
		s.fail(w, r, err)
		return
	}
	f.Fit.Notice = r.URL.Query().Get("fit")
	s.renderSettings(w, r, http.StatusOK, f)
}

func (s *Server) renderSettings(w http.ResponseWriter, r *http.Request, status int, f views.SettingsForm) {
	p := s.page(r, "Settings", "study.js")
	p.CSS = append(p.CSS, s.assets.URL("study.css"))
	s.render(w, r, status, views.Settings(p, f))
}

func (s *Server) saveSettings(w http.ResponseWriter, r *http.Request) {
	u := userFrom(r.Context())
	f := views.SettingsForm{
		Retention: strings.TrimSpace(r.PostFormValue("retention")),
		NewPerDay: strings.TrimSpace(r.PostFormValue("new_per_day")),
		Depth:     r.PostFormValue("depth"),
		TimeZone:  strings.TrimSpace(r.PostFormValue("timezone")),
		Keep:      strings.TrimSpace(r.PostFormValue("keep_recordings")),
		Interview: strings.TrimSpace(r.PostFormValue("interview_date")),
	}
	st, fe := parseSettings(f, u.Settings)
	fe = parseInterviewDate(f.Interview, &st, s.now(), fe)
	keep, err := strconv.Atoi(f.Keep)
	if f.Keep == "" { // a form without the field keeps the current setting
		keep, err = s.db.RecordingsKeep(r.Context(), u.ID)
		if err != nil {
			s.fail(w, r, err)
			return
		}
	} else if err != nil || keep < 1 || keep > maxKeepRecordings {
		if fe == nil {
			fe = &views.FormError{Form: "Please correct the fields marked below.", Fields: map[string]string{}}
		}
		fe.Fields["keep_recordings"] = "Keep between 1 and 50 recordings per card."
	}
	if fe != nil {
		f.Err = fe
		var err error
		if f.Fit, err = s.fitView(r.Context(), u); err != nil {
			s.fail(w, r, err)
			return
		}
		s.renderSettings(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	if err := s.db.UpdateSettings(r.Context(), u.ID, st); err != nil {
		s.fail(w, r, err)
		return
	}
	if st.InterviewDate != u.Settings.InterviewDate || st.TimeZone != u.Settings.TimeZone {
		nu := *u
		nu.Settings = st
		if err := s.pullInForDate(r.Context(), &nu); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if err := s.db.SetRecordingsKeep(r.Context(), u.ID, keep); err != nil {
		s.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/settings?saved=1", http.StatusSeeOther)
}

// parseSettings validates the form over the user's current settings, keeping the fields this
// form does not own (HideFromTeam belongs to the team page).
func parseSettings(f views.SettingsForm, cur store.Settings) (store.Settings, *views.FormError) {
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
	case !(ret >= minRetention && ret <= maxRetention): // also refuses NaN

		fields["retention"] = "Choose a desired retention between 0.70 and 0.97."
	default:
		st.DesiredRetention = ret
	}
	n, err := strconv.Atoi(f.NewPerDay)
	switch {
	case err != nil:
		fields["new_per_day"] = "Enter a whole number of new cards per day."
	case n < 0 || n > maxNewPerDay:
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
	} else if _, err := loadZone(f.TimeZone); err != nil {
		fields["timezone"] = "“" + f.TimeZone + "” is not a time zone name; use one like Europe/Berlin or America/New_York."
	} else {
		st.TimeZone = f.TimeZone
	}
	if len(fields) > 0 {
		return cur, &views.FormError{Form: "Please correct the fields marked below.", Fields: fields}
	}
	return st, nil
}
