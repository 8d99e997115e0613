//! Heuristic evaluation: progress toward the chosen victory (prisoners by count and/or value),
//! material on the board, pieces either side threatens to take, advance toward the enemy, and
//! for the formation victories the pieces already in the enemy half.

use super::*;

/// Worth of capturing `count` pieces of total value `sum` under the chosen victory (1000 = done).
fn progress(cfg: &Cfg, count: u32, sum: u32) -> f64 {
    let fc = (count.min(cfg.n.max(1)) as f64) / cfg.n.max(1) as f64;
    let fs = (sum.min(cfg.s.max(1)) as f64) / cfg.s.max(1) as f64;
    match cfg.victory {
        Victory::Corps => 1000.0 * fc,
        Victory::Bien | Victory::Proces => 1000.0 * fs,
        Victory::CorpsBien | Victory::Honore => 500.0 * (fc + fs),
        Victory::Grande | Victory::Majeure | Victory::Excellente => 40.0 * count as f64,
    }
}

fn side_score(g: &Rithmomachia, s: u8) -> f64 {
    let p = &g.pris[s as usize];
    let mut score = progress(&g.cfg, p.count, p.sum);
    score += 12.0 * g.own[s as usize].count_ones() as f64;
    let formation = matches!(
        g.cfg.victory,
        Victory::Grande | Victory::Majeure | Victory::Excellente
    );
    if !formation {
        // A gentle pull toward the enemy: without it, once the pieces within reach are taken,
        // a search sees no capture on its horizon and shuffles until MaxPlies.
        let mut m = g.own[s as usize];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let r = (g.pieces[i].sq >> 3) as i32;
            let adv = if s == BLACK { 15 - r } else { r };
            score += adv as f64 * 1.5;
        }
    }
    if matches!(
        g.cfg.victory,
        Victory::Grande | Victory::Majeure | Victory::Excellente
    ) {
        let mut m = g.own[s as usize];
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let r = (g.pieces[i].sq >> 3) as i32;
            // Ranks advanced toward the enemy half (0..15) and being inside it.
            let adv = if s == BLACK { 15 - r } else { r };
            score += adv as f64 * 2.0;
            if adv >= 8 {
                score += 10.0;
            }
        }
        if g.cfg.victory != Victory::Grande && g.formation_kinds(s, 3) != 0 {
            score += 120.0;
        }
    }
    score
}

pub fn evaluate(g: &Rithmomachia, seat: Seat) -> i32 {
    match g.status() {
        Status::Over(o) => {
            return if o.winner() == Some(seat) {
                30000
            } else if o.winner().is_some() {
                -30000
            } else {
                0
            }
        }
        Status::Ongoing => {}
    }
    let stm = g.stm;
    let mut v = side_score(g, stm) - side_score(g, 1 - stm);
    // Pieces of the side to move that the enemy's next phase 1 would take (the mover can save
    // at most one of them), against a small bonus for the move in hand.
    let (n, val) = g.threatened(stm);
    if n > 0 {
        let p = &g.pris[1 - stm as usize];
        let gain = progress(&g.cfg, p.count + n, p.sum + val) - progress(&g.cfg, p.count, p.sum);
        v -= 0.6 * gain;
    }
    // Enemy pieces our next phase 1 would take if the enemy leaves them: a threat forces a reply,
    // and against a careless opponent it becomes a capture.
    let (n, val) = g.threatened(1 - stm);
    if n > 0 {
        let p = &g.pris[stm as usize];
        let gain = progress(&g.cfg, p.count + n, p.sum + val) - progress(&g.cfg, p.count, p.sum);
        v += 0.25 * gain;
    }
    let unit = progress(&g.cfg, 1, g.cfg.s / 12 + 1) - progress(&g.cfg, 0, 0);
    v += 0.25 * unit;
    let v = v.clamp(-20000.0, 20000.0) as i32;
    if seat == stm as usize {
        v
    } else {
        -v
    }
}
