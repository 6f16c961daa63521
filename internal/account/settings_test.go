package account

import (
	"testing"

	"github.com/rehearse/rehearse/internal/store"
	"github.com/rehearse/rehearse/internal/views"
)

// FuzzSettingsForm: accepted settings are always in bounds; a refused form changes nothing and
// says which field is wrong.
func FuzzSettingsForm(f *testing.F) {
	f.Add("0.9", "20", "basics", "Europe/Berlin")
	f.Add("90%", "0", "deeper", "UTC")
	f.Add("NaN", "-1", "", "Local")
	f.Add("1e308", "99999999999999999999", "solid", "../../etc/passwd")
	f.Fuzz(func(t *testing.T, retention, newPerDay, depth, tz string) {
		cur := store.Settings{DesiredRetention: 0.9, NewPerDay: 20, DefaultDepth: "basics", TimeZone: "UTC", HideFromTeam: true}
		st, fe := ParseSettings(views.SettingsForm{Retention: retention, NewPerDay: newPerDay, Depth: depth, TimeZone: tz}, cur)
		if fe != nil {
			if st != cur || len(fe.Fields) == 0 {
				t.Fatalf("refused form: settings %+v, fields %v", st, fe.Fields)
			}
			for k, msg := range fe.Fields {
				if k == "" || msg == "" {
					t.Fatalf("field message %q: %q", k, msg)
				}
			}
			return
		}
		if !(st.DesiredRetention >= MinRetention && st.DesiredRetention <= MaxRetention) ||
			st.NewPerDay < 0 || st.NewPerDay > MaxNewPerDay || !st.HideFromTeam {
			t.Fatalf("accepted out-of-bounds settings %+v", st)
		}
		if _, err := LoadZone(st.TimeZone); err != nil {
			t.Fatalf("accepted time zone %q: %v", st.TimeZone, err)
		}
	})
}
