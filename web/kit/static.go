package kit

// siteCSS is the portal's only stylesheet: plain, readable, no scripts needed.
const siteCSS = `
body { font-family: system-ui, "PingFang SC", "Noto Sans CJK SC", sans-serif; margin: 0; color: #222; line-height: 1.5; }
header { display: flex; flex-wrap: wrap; gap: .5rem 2rem; align-items: center; padding: .75rem 1.5rem; background: #1d3b2a; }
header a { color: #f4efe1; text-decoration: none; }
.brand { font-weight: bold; font-size: 1.2rem; }
nav { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; align-items: center; }
main { max-width: 60rem; margin: 1.5rem auto; padding: 0 1.5rem; }
footer { max-width: 60rem; margin: 2rem auto; padding: 0 1.5rem; color: #666; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #ddd; }
.muted { color: #888; }
.error { color: #a30000; font-weight: bold; }
form.search { display: flex; flex-wrap: wrap; gap: 1rem; align-items: end; margin: 1rem 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1.5rem; }
dt { color: #555; }
nav form.inline { margin: 0; }
form.inline { display: inline-flex; flex-wrap: wrap; gap: .4rem; align-items: center; }
button.link { background: none; border: none; color: #f4efe1; cursor: pointer; font: inherit; padding: 0; }
.ok { color: #1d5b2a; font-weight: bold; }
.warn { color: #8a5a00; font-weight: bold; }
.verdict { border: 2px solid #1d5b2a; border-radius: .4rem; padding: .5rem 1rem; margin: 1rem 0; }
.verdict-head { font-size: 1.3rem; font-weight: bold; margin: 0 0 .5rem; color: #1d5b2a; }
.verdict-revoked, .verdict-reissued { border-color: #a30000; }
.verdict-revoked .verdict-head, .verdict-reissued .verdict-head { color: #a30000; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ccc; }
.stats-body { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.stats-body svg { max-width: 100%; height: auto; }
.wide { overflow-x: auto; } .mark { white-space: nowrap; padding: 0 .3rem; border-radius: .2rem; }
/* A phone (issue 24): wide tables scroll inside their own box with the
   first column (the name) held in place; a cell is never narrower than a
   name, so names do not wrap one character a line; pictures, charts and
   the board scale to the screen; hashes and long codes break inside their box. */
.verdict, .verdict-head, code { overflow-wrap: anywhere; }
details.proof { margin-top: .75rem; } details.proof > summary { cursor: pointer; color: #555; }
svg, img { max-width: 100%; height: auto; }
input, select, textarea { max-width: 100%; box-sizing: border-box; }
@media (max-width: 40rem) {
  header { padding: .5rem .75rem; gap: .25rem 1rem; }
  main, footer { padding: 0 .75rem; }
  main table { display: block; overflow-x: auto; max-width: 100%; }
  main .wide table { display: table; overflow-x: visible; } /* its box scrolls, not the table */
  th, td { min-width: 4.5em; }
  tr > :first-child { position: sticky; left: 0; background: #fff; }
}
.mark-green { background: #e3f1e6; } .mark-amber { background: #fbecc6; } .mark-red { background: #f6d0d0; font-weight: bold; }
`
