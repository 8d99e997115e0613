//! Playing a turn on a full state (docs/rules/tesseris.md, "A round" and "End of the game"): the
//! discard (and what the other seats forget), the draw, and the end of the turn (round end,
//! scoring, the next deal or the end of the game).

use super::*;

impl Tesseris {
    pub(super) fn play_full(&mut self, m: TMove) {
        let s = self.to_move as usize;
        let before = self.misc();
        let (i, c) = self.discard(s, m);
        // What stays in the hand was there when `s` chose not to complete with it, and chose
        // to give away another card (a completion may leave a second matching card: no
        // inference then).
        for j in 0..4 {
            self.kept[s][j] = if m.discard < 4 && j != i {
                (self.kept[s][j] + 1).min(KEPT_MAX)
            } else {
                0
            };
        }
        self.draw(s, i, c, m.draw);
        self.end_turn(s, before);
    }

    /// The discard: the card leaves slot `i` of seat `s`'s hand onto a pile or under an
    /// objective. Returns the slot and the card.
    fn discard(&mut self, s: usize, m: TMove) -> (usize, u8) {
        let n = self.n as usize;
        // The copy discarded: the one most seats know about (same card either way).
        let mut slot = None;
        let mut best = 0;
        for i in 0..4 {
            if self.hand[s][i] == m.card {
                let pc = self.mask[s][i].count_ones();
                if slot.is_none() || pc > best {
                    slot = Some(i);
                    best = pc;
                }
            }
        }
        let i = slot.unwrap_or(0);
        let c = self.hand[s][i];
        let mi = self.mask[s][i];
        // A seat that did not know this copy but knew another copy of the same card in this
        // hand can no longer be sure which one left: it forgets one copy.
        for x in 0..n {
            if x != s && mi >> x & 1 == 0 {
                if let Some(j) = (0..4)
                    .find(|&j| j != i && self.hand[s][j] == c && self.mask[s][j] >> x & 1 == 1)
                {
                    self.set_mask(s, j, self.mask[s][j] & !(1 << x));
                }
            }
        }
        if m.discard < 4 {
            self.push_pile(m.discard as usize, c);
        } else {
            let k = (m.discard - 4) as usize & 3;
            self.hash =
                self.hash
                    .wrapping_sub(k_obj(s, k, self.obj[s][k], self.done[s] >> k & 1 == 1));
            self.done[s] |= 1 << k;
            self.done_at[s][k] = self.ply + 1;
            self.hash = self.hash.wrapping_add(k_obj(s, k, self.obj[s][k], true));
        }
        self.settle();
        (i, c)
    }

    /// The draw into slot `i` (`c` the card just discarded): from the deck, a pile top or
    /// another seat's hand (a random card of it, which that seat refills from the deck).
    fn draw(&mut self, s: usize, i: usize, c: u8, draw: u8) {
        let n = self.n as usize;
        match draw {
            0 => {
                let new = self.pop_deck().unwrap_or(c);
                self.set_slot(s, i, new, 1 << s);
                self.settle();
            }
            1..=4 => {
                let q = (draw - 1) as usize;
                let new = self.pop_pile(q).unwrap_or(c);
                let all = self.all_mask();
                self.set_slot(s, i, new, all);
                self.settle();
            }
            _ => {
                let v = ((draw - 5) as usize).min(n - 1);
                let j = self.bounded(4);
                let c2 = self.hand[v][j];
                if self.mask[v][j] >> s & 1 == 0 {
                    if let Some(l) = (0..4)
                        .find(|&l| l != j && self.hand[v][l] == c2 && self.mask[v][l] >> s & 1 == 1)
                    {
                        self.set_mask(v, l, self.mask[v][l] & !(1 << s));
                    }
                }
                for z in 0..n {
                    if z != s && z != v {
                        for l in 0..4 {
                            if self.mask[v][l] >> z & 1 == 1 {
                                self.set_mask(v, l, self.mask[v][l] & !(1 << z));
                            }
                        }
                    }
                }
                self.set_slot(s, i, c2, 1 << s | 1 << v);
                let refill = self.pop_deck().unwrap_or(c2);
                self.set_slot(v, j, refill, 1 << v);
                self.kept[v][j] = 0;
                self.settle();
            }
        }
    }

    /// The next round: the first player's marker passes on, and the cards are dealt.
    pub(super) fn next_deal(&mut self) {
        self.first = ((self.first as usize + 1) % self.n as usize) as u8;
        self.deal_round();
    }

    /// The end of the turn: the round ends after the last seat of a triggered round (scores,
    /// then the next deal or the end of the game); otherwise the next seat moves.
    fn end_turn(&mut self, s: usize, before: Misc) {
        let n = self.n as usize;
        if self.done[s] == 15 {
            self.triggered = true;
        }
        self.ply = self.ply.saturating_add(1);
        let last = (self.first as usize + n - 1) % n;
        let mut dealt = false;
        if self.triggered && s == last {
            for t in 0..n {
                self.scores[t] = self.scores[t].saturating_add(self.done[t].count_ones() as u16);
            }
            self.rounds_done = self.rounds_done.saturating_add(1);
            self.status = self.game_end_status();
            if self.status.is_over() {
                self.to_move = ((s + 1) % n) as u8;
            } else {
                self.next_deal();
                dealt = true;
            }
        } else {
            self.to_move = ((s + 1) % n) as u8;
            self.status = self.game_end_status();
        }
        if dealt {
            self.hash = self.compute_hash();
        } else {
            // The keys of what changed (most turns: the seat to move alone).
            self.hash = self
                .hash
                .wrapping_add(misc_delta(&before, &self.misc(), self.n));
        }
    }
}
