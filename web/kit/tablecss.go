package kit

// tableCSS is the national audit table's layout: it scrolls inside its
// box with the agency's name fixed at the left, the ruling and the
// indicator names wrap at a readable width (not a character a line), and
// each value stays on one line; its charts scale to the screen. (Apart from siteCSS so that the phone
// layout's rules and these do not touch the same lines.)
const tableCSS = `
.audit-box { max-width: 100%; overflow-x: auto; border: 1px solid #ddd; }
.audit-table { width: auto; min-width: 100%; }
.audit-table th, .audit-table td { vertical-align: top; }
.audit-table thead th { min-width: 8em; max-width: 12em; white-space: normal; font-weight: normal; font-size: .85rem; }
.audit-table .agency-cell { position: sticky; left: 0; z-index: 1; background: #fff; min-width: 8em; max-width: 12em; white-space: normal; box-shadow: 1px 0 0 #ddd; }
.audit-table thead .agency-cell { z-index: 2; font-weight: bold; }
.audit-table .ruling-cell { min-width: 6em; white-space: nowrap; }
.audit-table td { white-space: nowrap; }
.audit-table .agency-cell .muted { font-size: .8rem; }
.audit-charts svg { max-width: 100%; height: auto; }
`
