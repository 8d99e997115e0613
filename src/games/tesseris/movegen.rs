//! The moves (docs/rules/tesseris.md, "A round"): a turn is one move — discard a card onto a pile
//! or under one of one's open objectives, then draw from the deck, a pile top or another seat's
//! hand. On an observation of another seat's turn, any card it might hold may be discarded.

use super::*;

impl Tesseris {
    pub(super) fn push_moves_for(&self, s: usize, c: u8, out: &mut Vec<TMove>) {
        let n = self.n as usize;
        for k in 0..4 {
            if self.obj[s][k] == c && self.done[s] >> k & 1 == 0 {
                let d = 4 + k as u8;
                if self.deck_len > 0 {
                    out.push(TMove {
                        card: c,
                        discard: d,
                        draw: 0,
                    });
                }
                for q in 0..4 {
                    if self.pile_len[q] > 0 {
                        out.push(TMove {
                            card: c,
                            discard: d,
                            draw: 1 + q as u8,
                        });
                    }
                }
                if self.deck_len > 0 {
                    for v in (0..n).filter(|&v| v != s) {
                        out.push(TMove {
                            card: c,
                            discard: d,
                            draw: 5 + v as u8,
                        });
                    }
                }
            }
        }
        for p in 0..4 {
            // After the discard, an empty deck is rebuilt from the cards under the tops, and
            // pile p then has at least two cards.
            let deck_ok = self.deck_len > 0 || self.pile_len[p] > 0;
            if deck_ok {
                out.push(TMove {
                    card: c,
                    discard: p as u8,
                    draw: 0,
                });
            }
            for q in 0..4 {
                if q != p && self.pile_len[q] > 0 {
                    out.push(TMove {
                        card: c,
                        discard: p as u8,
                        draw: 1 + q as u8,
                    });
                }
            }
            if deck_ok {
                for v in (0..n).filter(|&v| v != s) {
                    out.push(TMove {
                        card: c,
                        discard: p as u8,
                        draw: 5 + v as u8,
                    });
                }
            }
        }
    }

    /// Whether `mv` is legal, as `gen_moves` would list it, without listing the moves: the
    /// baseline checks its one choice per rollout ply this way (listing them all was a quarter
    /// of an ISMCTS search's time). `None` when the mover's hand holds unknown cards (an
    /// observation), where only the list can tell.
    pub fn is_legal_known(&self, mv: TMove) -> Option<bool> {
        if self.status.is_over() {
            return Some(false);
        }
        let s = self.to_move as usize;
        if self.hand[s].contains(&UNKNOWN) {
            return None;
        }
        let n = self.n as usize;
        let c = mv.card;
        if c == UNKNOWN || !self.hand[s].contains(&c) {
            return Some(false);
        }
        let steal_ok = |v: u8| (v as usize) < n && v as usize != s;
        Some(match mv.discard {
            d @ 4..=7 => {
                let k = (d - 4) as usize;
                self.obj[s][k] == c
                    && self.done[s] >> k & 1 == 0
                    && match mv.draw {
                        0 => self.deck_len > 0,
                        q @ 1..=4 => self.pile_len[q as usize - 1] > 0,
                        v @ 5..=8 => self.deck_len > 0 && steal_ok(v - 5),
                        _ => false,
                    }
            }
            p @ 0..=3 => {
                // After the discard an empty deck is rebuilt from the cards under the tops.
                let deck_ok = self.deck_len > 0 || self.pile_len[p as usize] > 0;
                match mv.draw {
                    0 => deck_ok,
                    q @ 1..=4 => q - 1 != p && self.pile_len[q as usize - 1] > 0,
                    v @ 5..=8 => deck_ok && steal_ok(v - 5),
                    _ => false,
                }
            }
            _ => false,
        })
    }

    /// The distinct cards the mover may discard (for an observation of another seat's turn: any
    /// card it might hold).
    pub(super) fn candidate_cards(&self) -> u32 {
        let s = self.to_move as usize;
        let mut set = 0u32;
        let mut unknown = false;
        for &c in &self.hand[s] {
            if c == UNKNOWN {
                unknown = true;
            } else {
                set |= 1 << c;
            }
        }
        if unknown {
            let pool = self.unknown_pool();
            for c in 0..18 {
                if pool[c] > 0 {
                    set |= 1 << c;
                }
            }
        }
        set
    }

    /// Every legal move of the seat to move (none once the game is over).
    pub(super) fn gen_moves(&self, out: &mut Vec<TMove>) {
        out.clear();
        if self.status.is_over() {
            return;
        }
        let s = self.to_move as usize;
        let mut set = self.candidate_cards();
        while set != 0 {
            let c = set.trailing_zeros() as u8;
            set &= set - 1;
            self.push_moves_for(s, c, out);
        }
    }
}
