//! The learned evaluation's input features (`learn::NetInput`): one feature per piece — its
//! colour, type and square — and one for Black to move.

use super::*;
use crate::learn::NetInput;

impl NetInput for Hyperchess {
    fn feature_set(&self) -> String {
        format!("hyperchess-{}x{}/1", self.geo.cols, self.geo.rows)
    }

    fn feature_count(&self) -> usize {
        14 * self.geo.nsq + 1
    }

    fn features(&self, out: &mut Vec<u32>) {
        let nsq = self.geo.nsq;
        for (sq, &pc) in self.board[..nsq].iter().enumerate() {
            if pc != 0 {
                let kind = (pc >> 3) as usize * 7 + (pc & 7) as usize - 1;
                out.push((kind * nsq + sq) as u32);
            }
        }
        if self.side == 1 {
            out.push((14 * nsq) as u32);
        }
    }
}
