// Replays the exported games with @sabaki/go-board (immutable boards, simple
// ko, suicide and overwrite checks) and prints nanoseconds per move.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const Board = require('@sabaki/go-board')

const [file, roundsArg] = process.argv.slice(2)
const games = JSON.parse(readFileSync(file, 'utf8'))
const rounds = Number(roundsArg)
const opts = { preventSuicide: true, preventOverwrite: true, preventKo: true }

function once() {
  let moves = 0
  let illegal = 0
  for (const g of games) {
    let board = Board.fromDimensions(g.size)
    for (const [s, x, y] of g.setup ?? []) board.set([x, y], s)
    for (const [s, x, y] of g.moves) {
      moves++
      if (x < 0) continue // a pass: nothing to place
      try {
        board = board.makeMove(s, [x, y], opts)
      } catch {
        illegal++
      }
    }
  }
  return [moves, illegal]
}

once()
const start = process.hrtime.bigint()
let moves = 0
let illegal = 0
for (let i = 0; i < rounds; i++) {
  const [m, il] = once()
  moves += m
  illegal += il
}
const ns = Number(process.hrtime.bigint() - start) / moves
console.log(JSON.stringify({ engine: '@sabaki/go-board', games: games.length, moves, illegal, ns_per_move: Number(ns.toFixed(1)) }))
