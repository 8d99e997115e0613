//! The setup (docs/rules/tesseract.md, "Setup"): the 14 setup plies in their stages (men, small
//! sliders, crosses; `CrossesFirst` puts the crosses first), each side's camp, where a cross
//! centre may go, and the check that a setup position's placements match its setup ply.

use super::*;

/// Whether `sq` is in `side`'s camp (White ranks 2-3, Black ranks 13-14).
#[inline]
pub(crate) fn in_camp(side: usize, sq: u8) -> bool {
    let r = rank_of(sq);
    if side == 0 {
        r == 1 || r == 2
    } else {
        r == 12 || r == 13
    }
}

/// Whether `sq` may be a cross centre: neutral zone, footprint on the board (ranks 4-12, files b-n).
#[inline]
pub(crate) fn cross_centre_ok(sq: u8) -> bool {
    let (f, r) = (file_of(sq), rank_of(sq));
    (1..=13).contains(&f) && (3..=11).contains(&r)
}

/// The setup stage a setup ply belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Stage {
    Men,
    Sliders,
    Crosses,
    Play,
}

/// Stage of setup ply `step` (0..14) under the chosen order; `Play` from 14 on.
pub(crate) fn stage_of(step: u8, crosses_first: bool) -> Stage {
    if step >= SETUP_PLIES {
        return Stage::Play;
    }
    if crosses_first {
        match step {
            0..=3 => Stage::Crosses,
            4..=9 => Stage::Men,
            _ => Stage::Sliders,
        }
    } else {
        match step {
            0..=5 => Stage::Men,
            6..=9 => Stage::Sliders,
            _ => Stage::Crosses,
        }
    }
}

impl Tesseract {
    /// Checks that the placements made so far match the setup step (setup positions only).
    pub(super) fn check_setup_counts(&self) -> Result<(), String> {
        for side in 0..2 {
            let mut men_placed = 0u32;
            let mut sl_placed = 0u32;
            let mut x_placed = 0u32;
            for st in 0..self.step {
                if st as usize % 2 != side {
                    continue;
                }
                match stage_of(st, self.crosses_first) {
                    Stage::Men => men_placed += 1,
                    Stage::Sliders => sl_placed += 1,
                    Stage::Crosses => x_placed += 1,
                    Stage::Play => {}
                }
            }
            let name = ["White", "Black"][side];
            let r = &self.reserve[side];
            let on_men = (FULL[R_T] - r[R_T]) + (FULL[R_S] - r[R_S]) + (FULL[R_P] - r[R_P]);
            if on_men as u32 != men_placed
                || r[R_S] < 1
                || r[R_R] != 1
                || r[R_C] != 1
                || r[R_L] != 2
                || (FULL[R_SM] - r[R_SM]) as u32 != sl_placed
                || (FULL[R_X] - r[R_X]) as u32 != x_placed
            {
                return Err(format!(
                    "{} has placed pieces that do not match setup ply {} (by then {} has placed {} of T/S/P, {} small sliders and {} crosses)",
                    name, self.step, name, men_placed, sl_placed, x_placed
                ));
            }
        }
        Ok(())
    }
}
