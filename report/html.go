package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/kivi-go/kivi/explorer"
)

// WriteHTML writes the counterexample explorer for a report: one
// self-contained HTML page (no network access) that embeds the report's
// JSON document (WriteJSON's) and shows every counterexample step by step
// with the cluster after each step.
func (r *Report) WriteHTML(w io.Writer) error {
	return r.JSON().WriteHTML(w)
}

// WriteHTML writes the explorer for any JSON document the CLI prints
// that carries JSON reports: a JSONReport, or the scaling search's
// document whose "setups" each carry one. doc is marshalled as --json
// marshals it.
func (doc JSONReport) WriteHTML(w io.Writer) error {
	data, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("explorer: %w", err)
	}
	return explorer.Write(w, data)
}
