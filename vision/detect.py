"""Finding a board in a photo: the grid from its lines, centred on its stones when unsure.

:func:`vision.grid.find_grid` places the grid from the board's lines (or, when
none are seen, from the lattice of its stones). Where the lines leave that
placement unsure (crossing evidence under ``SURE_EVIDENCE``: a crowded board, a
blurred one), :func:`vision.centring.centre_on_stones` moves it to where the
stones read surest. The grid through the stones' own lattice
(:func:`vision.grid.find_by_stones`), centred too, replaces it where it reads
clearly surer (``STONES_SURER``): a crowded board's seams pass for lines; so
does the grid in the outline of a nearly full board's stones
(:func:`vision.outline.stones_outlines`), whose wood shows as no one patch. Where
the lines place no grid at all, the board's outline and its stones may still
(:func:`vision.outline.find_by_outline`; an outline's unsure grid gives way to
the stones' lattice as a line grid does); and where they place it unsure, the
grid in the board's outline replaces theirs if it reads clearly surer
(``OUTLINE_SURER``), or where its lines show clearly more
(``OUTLINE_LINES_CLEARER``): the lines' window may be lines off. A placement
whose stones read near certain is checked so only where its crossings are faint
(``FAINT_EVIDENCE``): a sparse board reads as sure a line off. Where nothing
found a board, the lattice of loose blobs (touching stones) may, if its stones
read as a board; then that of the cores of the dark and bright regions that
a nearly full board's stones merge into (:func:`vision.lattice.touching_centres`);
then lines a grey level or two deep, sought on a locally
equalised copy (:func:`vision.grid.find_faint_grid`), under the same floors;
and last lines blurred wider than the line filter, by a wider one
(:func:`vision.grid.find_blurred_grid`), under those floors too. A
placement still unsure is snapped onto the lines near it while that makes its
stones read surer (``SNAP_SURER``): one side of it may sit part of a cell off;
its sides are moved to lay its lines on the board's, where its stones read
surer so (``STRETCH_SURER``; :func:`vision.grid.stretch_to_lines`): a wrong
vanishing point or spacing leaves it lines off at the far side; and its window
moves whole lines toward lines of stones left outside it
(:func:`vision.centring.take_in_stones`), and a line on where the lines crossing
its first line stop short of it and run on past its last
(:func:`vision.centring.take_in_line_ends`): its outer line on the board's rim. An
unsure grid on which neither the stones nor the lines stand out from half a cell
off (``BARE_CONTRAST``) is not taken (a floor's tiles, or a board's lattice
lines off): the searches for where nothing was found then look for the board.
Last of all, a learned network's four corners (:mod:`vision.corners`) give a
grid where nothing else found one, and dispute a placement still unsure
(``DISPUTED_BELOW``), whose place their grid takes where it reads surer. A
placement very unsure even then (``LATTICE_BELOW``) is refitted to the lattice
through its stones' centres, which takes its place where it holds
(:func:`_on_stones_lattice`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import cv2
import numpy as np
import numpy.typing as npt

from vision.centring import (
    CERTAIN,
    centre_on_stones,
    certainty,
    half_cell_contrast,
    take_in_line_ends,
    take_in_stones,
)
from vision.corners import (
    SAME_GUESS_PIXELS,
    CornerGuess,
    corner_guesses,
    corner_spread,
    find_corners,
    refine_corners,
)
from vision.errors import VisionError
from vision.geometry import apply_homography
from vision.grid import (
    CORNER_REACH,
    SMEARED_WIDTH,
    SURE_EVIDENCE,
    BoardDetection,
    Grid,
    corner_on_lines,
    doubled_spacings,
    find_blurred_grid,
    find_by_stones,
    find_combed_grid,
    find_faint_grid,
    find_grid,
    find_wide_region_grid,
    grid_from_corners,
    lines_alternate,
    lines_beyond,
    lone_lines,
    settle_on_crossings,
    snap_to_lines,
    stretch_to_lines,
)
from vision.kept import photo_kept
from vision.lattice import refit_point_lattice, stone_centres
from vision.outline import (
    BLURRED_CERTAINTY,
    DISTINCT_CONTRAST,
    LINED_CERTAINTY,
    MIN_CERTAINTY,
    MIN_CONTRAST,
    MIN_LINE_CONTRAST,
    OutlineGrid,
    find_by_outline,
    find_by_stretched_outline,
    line_contrast,
    outline_grids,
    stones_outlines,
    weaker_lines,
)
from vision.stones import StoneReading, read_stones

__all__ = [
    "BARE_CONTRAST",
    "CROWDED",
    "FAINT_EVIDENCE",
    "OUTLINE_LINES_CLEARER",
    "OUTLINE_LINES_KEPT",
    "OUTLINE_SURER",
    "SNAP_STEPS",
    "SNAP_SURER",
    "SNAP_UNSURE",
    "STONES_SURER",
    "STRETCH_SURER",
    "UNSURE_READING",
    "detect_board",
    "read_board",
]

#: The stones' mean log-probability per point (:func:`vision.centring.certainty`)
#: at which an unsure placement's confidence falls to 0, from 1 at certain: a
#: misplaced grid reads its stones unsure. Dev photos (594 boards placed, 23 of
#: them wrongly): confidence under 0.5 for 15 of the 23 misplaced (2 before) and
#: 18 of the 571 placed right (12 before); the confidence tells them apart with
#: an area under the ROC curve of 0.93 (0.85 before). At 0.03: 0.93, 18 and 31;
#: at 0.08: 0.89, 9 and 13.
UNSURE_READING = 0.05

#: How much surer than half a cell off (:func:`vision.centring.half_cell_contrast`)
#: the stones of an unsure placement must read, at least, where they read unsure
#: (under ``LINED_CERTAINTY``) and its lines do not show (under
#: ``MIN_LINE_CONTRAST``): nothing but line crossings then says it is a board.
#: Dev photos: a floor of tiles at a third of their spacing (333 #191) 0.006, two
#: crowded boards placed lines off 0.006 and 0.013; the least of the boards placed
#: right that read unsure with their lines unseen, 0.067.
BARE_CONTRAST = 0.02
#: How much surer (mean log-probability per point) the grid through the stones'
#: lattice, centred on them, must read to replace an unsure grid the lines placed.
#: Dev photos (hard synthetic, seeds 777, 555 and 333; 336 unsure grids): from
#: 0.003 to 0.005, 7 crowded boards the lines misplaced are read right and none
#: placed right is lost; at 0.01, 6 and none.
STONES_SURER = 0.005
#: Share of an unsure grid's points read as stones from which the lattice of the
#: stones' cores is tried against it (:func:`vision.lattice.touching_centres`):
#: a nearly full board. Dev photos: 23 of 367 unsure placements, 2 of them
#: misplaced crowded boards. Also the share a grid in the stones' outline
#: (:func:`vision.outline.stones_outlines`) must read as stones to be weighed:
#: a sparse board's stones outline only part of it.
CROWDED = 0.7
#: How much surer (mean log-probability per point) a grid found in the board's
#: outline must read to replace an unsure grid the lines placed, if its stones
#: stand out from half a cell off at least as much. Dev photos (hard synthetic,
#: seeds 777, 555 and 333; 336 unsure grids): at 0.005, 14 boards the lines
#: misplaced are read right from their outline and none placed right is lost; at
#: 0, 16 and none; at 0.02, 8 and none.
OUTLINE_SURER = 0.005
#: Share of the lines' grid's line contrast (:func:`vision.outline.line_contrast`)
#: an outline grid that reads surer must keep to replace it, where the lines'
#: grid's lines show (``MIN_LINE_CONTRAST``): on a nearly empty board a grid
#: off the lines can read a few stones surer. Dev photos (hard synthetic, seeds
#: 1357, 2468, 333, 555 and 777; 26 outline grids replaced an unsure lines' grid
#: by reading surer): of the two that misplaced a board placed right, 2468 #29
#: (3 stones, reported at 0.92) kept 0.55 of its lines and #134 0.77 (a window
#: a line off, which :func:`vision.centring.take_in_line_ends` moves back); of
#: the ten that read a misplaced board right, those whose lines' grid showed its
#: lines kept 0.72 at least; two that replaced a right grid with another right
#: one kept 0.18 and 0.17 (a point gained, a point lost).
OUTLINE_LINES_KEPT = 0.6
#: Failing that, how much more an outline grid's lines must show than the lines'
#: grid's (:func:`vision.outline.line_contrast`) to replace it, reading at least
#: as sure, with stones at least as distinct and lines plainly seen
#: (``MIN_LINE_CONTRAST``). Dev photos (298 unsure grids left by the rule
#: above): from 0.05 to 0.2, two misplaced boards read right and none placed
#: right is lost; at 0, with certainty 0.005 worse allowed, one is lost. One of
#: the two already reads within ``OUTLINE_SURER`` of certain, where an outline
#: is sought only if its crossings are faint (``FAINT_EVIDENCE``).
OUTLINE_LINES_CLEARER = 0.2
#: Certainty (mean log-probability per point) under which a placement is tried
#: snapped onto the board's lines near it (:func:`vision.grid.snap_to_lines`):
#: a grid placed from its outline, its stones or a line's window can sit a
#: fraction of a cell off at one side, in perspective, while its stones still
#: read nearly sure. Of 627 dev boards, 124 read under it, 9 of them misplaced.
SNAP_UNSURE = -0.003
#: How much surer each snap must make the stones read to be kept. Dev photos
#: (those 124): two misplaced boards (555 #234, 333 #80) are read right and two
#: placed right gain 7 points; snaps that would cost points gained 0.001 at most.
SNAP_SURER = 0.003
#: Most snaps in a row: each moves every line at most half a cell.
SNAP_STEPS = 3
#: How much surer (mean log-probability per point) the stones must read on a grid
#: stretched onto the board's lines (:func:`vision.grid.stretch_to_lines`) for it
#: to be kept. Dev photos (hard synthetic, seeds 1357, 777, 555 and 333; 107
#: stretches kept at 0, moving the sides in turn): the two misplaced boards it
#: reads right gain 0.0026 and 0.064; of the 21 boards placed right whose reading
#: changes, the 15 that lose a point or two gain 0.0008 at most (one 0.0017),
#: and three of the six that gain points under 0.001.
STRETCH_SURER = 0.001
#: A stretch that reads no surer is still kept where its stones read as sure,
#: within ``STRETCH_KEPT``, and its lines show clearer by ``STRETCH_CLEARER``
#: and plainly (``MIN_LINE_CONTRAST``): an empty or sparse board a side a line
#: off reads its few stones as surely as on the right grid. Its lines tell. Dev
#: photos (hard synthetic, seeds 2468 and 1357, both whole): with this, the
#: second stretch and the stretch of grids an outline or faint lines placed,
#: three misplaced boards read right (1357 #83, an empty board, lines 1.05 to
#: 1.54 with certainty -0.0008 to -0.0015; 1357 #257; 2468 #212) and two placed
#: right gain 10 points (2468 #134: lines 0.70 to 0.91, certainty -0.0028 to
#: -0.0034). None loses a point; without the plainly seen lines, a 9×9 board's
#: lines from -0.05 to 0.18 cost it 5 (1357 #72).
STRETCH_KEPT = 0.002
STRETCH_CLEARER = 0.2
#: Stretches in a row: the first may lay the far side on its lines and leave the
#: near one a fraction off (1357 #83: 0.54 cells off after one, 0.12 after two).
STRETCH_ROUNDS = 2
#: Line crossings (:func:`vision.grid.find_grid`'s mean evidence) under which a
#: grid whose stones read near certain is still checked against the board's
#: outline for clearer lines: on a sparse board a window a line off reads its
#: few stones as surely. Where it runs, the check takes most of a photo's time:
#: on dev seeds 2468 and 1357, 117 such grids under 0.55 were checked, 0.9 s
#: each. With none checked, the five dev seeds (hard synthetic, 2468, 1357,
#: 333, 555 and 777) read the same but for one board misplaced, 777 #52
#: (crossings 0.32, its window a line off; stretched onto the lines, a corner
#: stays off), and 1357 #205 (0.34) 3 points worse (an arm's shadow read as
#: stones). The rest are now laid on their lines by the stretch and the
#: window's moves that follow (:func:`_laid_on_board`).
FAINT_EVIDENCE = 0.35
#: Certainty (mean log-probability per point) under which a placement checked
#: further is tried at twice its spacing along either axis
#: (:func:`vision.grid.doubled_spacings`); how much surer its stones must then
#: read (``DOUBLED_SURER``); and how plainly its lines must show both ways
#: (:func:`vision.outline.weaker_lines`): at least ``DOUBLED_LINED``, and at
#: least ``DOUBLED_KEPT`` of the placement's. The lines are what tell the two
#: cases apart. A lattice at half the board's spacing has every other line on the
#: board's (and the median line on one); doubled, all its lines are on the
#: board's, so they show at least as plainly. A grid on the board's lines doubled
#: lies on every other line, and half a cell off it is on the lines too, so its
#: lines show little. Stones alone cannot tell: the grid found for
#: dev 555 #85 (a board then missed), its rows on the board's lines (0.49), read
#: surer doubled (-0.139 to -0.032), its rows then off the lines (0.005). Dev
#: photos (hard synthetic, five seeds): 14 placements end under -0.05; doubled,
#: 777 #232 (columns; lines 0.23 to 0.29) and #268 (rows; -0.24 to 0.08) read
#: right (6 and 22 points wrong, misplaced before). Of the other twelve, the
#: five whose lines show (0.22 to 2.98) show them doubled at 4 % of that or less
#: (0.05 at most); where the lines do not show (seven), no doubled grid shows
#: more than 0.02, however much surer its stones read (1357 #280: -0.103 to
#: -0.045). Tried without the lines, held-out 9001 #93, placed right, was moved
#: off its lines; its lines show 0.84, doubled 0.001.
DOUBLED_UNSURE = -0.05
DOUBLED_SURER = 0.02
DOUBLED_LINED = 0.05
DOUBLED_KEPT = 0.5
#: Most confidence given a grid whose lines were seen only on an equalised copy
#: of the photo (:func:`vision.grid.find_faint_grid`), as a stones' lattice gets
#: at most half: equalising raises the grain and the floor's joints with the
#: lines, so crossings found there say less than the same crossings seen as the
#: photo is. Dev photos (hard synthetic, seeds 1357, 777, 555 and 333): 5
#: boards placed by faint lines, 2 of them misplaced, one given 0.96 (1357 #83,
#: an empty pale board in motion blur, its rows squeezed) and one 0.62.
FAINT_CONFIDENCE = 0.5
#: Line contrast both ways (:func:`vision.outline.weaker_lines`) at which a last
#: resort's grid is a board's however unsure its stones read: a blurred or
#: overexposed board's stones may read unsure on its true grid. Dev photos (hard
#: synthetic, five seeds): of the 1,173 grids the faint, blurred and outline
#: searches give on the 130 no-board photos, none shows its lines more than 0.12.
#: Two boards nothing else read are taken so, placed right: 333 #49 (empty, out of
#: focus; lines 0.59, certainty -0.029; 1 point wrong, confidence 0.42) and 1357
#: #270 (lines 0.50, certainty -0.136; 43 points wrong, confidence 0).
WELL_LINED = 0.45
#: The network's heat (:mod:`vision.corners`, the weakest of its four corners)
#: at which it is sure of a board. Dev photos (hard synthetic, eight seeds): of
#: the 248 with no board, the first network gave four corners on 13, at 0.10 to
#: 0.23; the one trained on 7,000 photos (round 49) gives four on none.
LEARNED_HEAT = 0.4
#: How much a grid on sure learned corners must stand out from half a cell off,
#: its stones as sure as ``MIN_CERTAINTY`` asks (``MIN_CONTRAST`` asks 0.04).
LEARNED_CONTRAST = 0.02
#: Most confidence given a grid the weaker floor took.
LEARNED_CONFIDENCE = 0.3
#: Where every search failed, the network still saw four corners and no floor
#: took their grid, it is given as a guess if its stones read surer on it than
#: half a cell off by more than this (:func:`vision.centring.half_cell_contrast`),
#: at this much confidence at most. The network sees four corners on none of the
#: 248 dev photos with no board, so a board is there (round 65: on one of 728,
#: at under ``GUESSED_HEAT``); the contrast says the grid lies on the stones'
#: lattice, not between. Dev photos (hard synthetic,
#: eight seeds, round 52): of the 10 boards every search missed, the network saw
#: 9; 3 read surer on their grid than half a cell off: 2468 #54 (3 points wrong)
#: and 555 #85 (119 wrong) placed right, 777 #47 misplaced (a corner 0.75 of a
#: cell off). Of the other 6, one would be right (1111 #182, contrast -0.0016).
GUESSED_CONTRAST = 0.0
GUESSED_CONFIDENCE = 0.1
#: Nor is a grid given as a guess unless the network sees its four corners at
#: this heat at least: where it is that unsure, a board need not be there.
#: Fresh 58585 #187 (round 65), a photo with no board: the network saw four
#: corners round a bowl of white stones at 0.154 (of the 728 dev photos with
#: no board, the only one it sees four corners on), and their grid's stones
#: read 0.0012 surer than half a cell off: a guess. Of the 6,765 boards it
#: sees on the dev photos on disk (23 seeds), 8 are under 0.2, and three of
#: the eleven under 0.25 are given as guesses: 15151 #82 at 0.19 (misplaced,
#: a corner 1.7 cells off), 90210 #105 at 0.225 and 24601 #65 at 0.233
#: (placed right). The test boards given as guesses are seen at 0.49 or more;
#: 3333 #227 (0.169) is refused either way, its stones reading surer half a
#: cell off.
GUESSED_HEAT = 0.2
#: The network's own corners are tried before the refiner's where their grid's
#: stones read this much surer (:func:`_unrefined`). The refiner learned to
#: place a corner from the lines near it; at cells of eight pixels, blurred, it
#: can move the network's corners off. Dev photos (hard synthetic, ten seeds,
#: rounds 63 and 64): of the 504 that reach the learned corners' checks or were
#: placed under 0.5, 51 place the network's corners (98 times); where their
#: stones read surer by 0.001 to 0.014, taking them moves five boards off or
#: onto a wrong grid (24601 #61 and #186, 70707 #90 and #116, 27182 #40) and
#: mends none; at 0.024 and 0.070 it places 31337 #127 (0.66 → 0.44 of a cell
#: off) and 65537 #57 (a 19×19 of 8-pixel cells, missed; 0.17 off). Where their
#: grid fails the floors, the refined grid is checked as before: round 63's
#: first draft, which went on from the network's corners then, missed 1111 #106.
UNREFINED_SURER = 0.02
#: A placement read less sure than this is checked against the learned corners
#: (:func:`_disputed`).
DISPUTED_BELOW = 0.9
#: The learned corners dispute a placement whose farthest corner lies more than
#: this many of its cells from theirs.
DISPUTED_CELLS = 1.0
#: The refined corners dispute only where the network sees its corners at this
#: heat or more (its own corners, unrefined, need ``LEARNED_HEAT``).
DISPUTED_HEAT = 0.25
#: Most confidence left a placement whose own corners the refiner moves more
#: than ``DISPUTED_CELLS`` where no other grid wins and its move is no sure
#: shift (:func:`_disputed`). Dev photos (hard synthetic, eight seeds): of the
#: 1,241 placements under ``DISPUTED_BELOW``, the refiner moves 6 more than a
#: cell. 555 #268's refined grid wins the dispute, 333 #123 is disputed by the
#: network's and 2222 #21 shifted; 3 are doubted: 3333 #121 (3 cells off, at 0),
#: and 3333 #28 and #115, placed right (at 0.42 and 0.74 before).
DOUBTED_CONFIDENCE = 0.3
#: A doubted placement gives way to its refined corners, the one the refiner is
#: unsure of sought on the lines, where their grid's stones read at least this
#: much surer (:func:`_doubted_completed`). Dev photos (hard synthetic, ten
#: seeds, round 63): of the 191 placed under 0.5, two reach it. 31337 #46, a
#: dark 19×19 its lines placed 1.5 cells off at 0.3 (the refiner sure of three
#: of its corners, unsure of the fourth, 0.52 of a cell off), reads 0.0023
#: surer with that corner on the lines, 0.04 of a cell off; 70707 #45, placed
#: right at 0.3, read 0.087 less sure so and stayed (with round 64's code the
#: refiner is sure of all four of its corners, and it does not reach this). Of the older dev seeds'
#: boards, 1357 #172, placed right and doubted, reads 0.0001 surer with a
#: corner moved 0.92 of a cell: "at least as sure" (round 63's draft) let it go.
COMPLETED_SURER = 0.001
#: The refiner moves an unsure placement as a whole where it moves its four
#: corners this many cells or more on average...
SHIFTED_CELLS = 0.5
#: ... and its grid replaces the placement where the refiner is sure of all
#: four where it put them (their spread, :func:`vision.corners.corner_spread`, at
#: most this many cells; :func:`_shifted`, which asks ``SHIFT_SPREAD`` since
#: round 62, below). Dev photos (hard synthetic, eight
#: seeds): of the 1,241 placements under ``DISPUTED_BELOW``, the refiner moves 6
#: so and is sure of 4, all misplaced: 2222 #21 and #94 and 1357 #219, a cell
#: and less than a cell off, which it places within 0.2 of a cell (333 #123, 2.4
#: cells off, is disputed first). Of the 2 it is not sure of, one is placed right
#: (3333 #28). Two corners moved half a cell would also take 555 #139, placed
#: right (0.45 off, 8 points wrong), whose grid on the refined corners lies
#: closer but reads 28 points wrong. The next placements, moved a mean 0.36 of
#: a cell, are one placed right (333 #44, whose refined grid lies farther off)
#: and one half a cell off (333 #241).
#: The last search takes a grid on the learned corners so too, where its stones
#: do not pass the floors (:func:`_found_by_learned_corners`). Dev photos (hard
#: synthetic, eight seeds): of the 248 with no board, 13 give four corners at
#: all, and the refiner's largest spread on those is 0.26 or more; of the 17
#: boards every search missed, it is sure of 3 (spread 0.07 to 0.09): 1357 #234
#: and 777 #214 placed right (5 and 43 points wrong), 3333 #93 a hair over half
#: a cell off at one corner (its confidence 0).
#: Those figures are the first refiner's, asked 0.1. The refiner retrained on
#: 7,000 photos (round 48) is more often right and surer: on the network's
#: corners of the 2,143 dev boards it sees, it is sure of 2,041 at 0.1 and of
#: 2,057 at 0.12, 13 of those more than half a cell off, as many as the first
#: refiner at 0.1 (of 2,035). On photos with no board its largest spread is
#: 0.185 or more (the 13 dev photos where the network sees corners; 0.204 on
#: 744 random squares on the 248 no-board dev photos). So 0.12: dev 2222 #94
#: (a 9×9 half a cell off, which it moves to within 0.07) spreads 0.11.
SHIFTED_SPREAD = 0.12
#: Round 62: an unsure placement's move as a whole (:func:`_shifted`) asks a
#: spread of at most this, not ``SHIFTED_SPREAD``: a nearly full board's
#: corners lie under stones, where the refiner is less sure though right. On
#: six seeds' 957 placements under 0.9 (dev 27182 and 31337, fresh 24601,
#: 86420, 65537 and 99991), 11 are moved so: the 8 it is sure of at 0.12
#: (spread 0.012 to 0.077) lay 0.7 to 2.2 cells off and are placed within 0.14
#: of a cell; two nearly full boards, doubted before, spread 0.128 and 0.150
#: (86420 #166, a 19×19 a line off at 0.3, to 0.34 of a cell off; 27182 #231,
#: a 9×9, 1.41 to 0.30 off). The last, 31337 #46 (spread 0.23), would lie 0.71
#: off, and no-board photos spread 0.185 or more (above): so 0.16, between.
SHIFT_SPREAD = 0.16
#: Where the network is this sure of its corners (``LEARNED_HEAT`` asks 0.4)...
AGREED_HEAT = 0.5
#: ... and the refiner moves none more than this many cells, two looks agree on
#: the board's corners (:func:`_found_by_learned_corners`). Dev photos (eight
#: seeds, round 49's network): of the 2,148 boards it sees, 1,575 are seen so,
#: and on none does a refined corner lie more than 0.35 of a cell off (at 0.25,
#: 1,750 and one 0.9 off); on the 248 no-board photos it sees no corners at all.
#: Where the heat is lower the two can agree on the wrong corner (dev 1111 #106:
#: heat 0.32, agreeing within 0.19 and 1.2 cells off at one corner).
AGREED_CELLS = 0.2
#: How far, in cells, centring on the stones and laying on the board may move a
#: last resort's grid from corners the refiner is sure of. Dev photos (round 49):
#: of the 17 boards the learned corners place, 16 are moved 0.22 of a cell or
#: less; 1111 #261, a 9×9 with one stone, 0.62, to 0.64 of a cell off (the
#: refined corners lie 0.37 off, spread 0.10). The sure refiner is more than half
#: a cell off on 4 of the 2,061 dev boards it is sure of (``SHIFTED_SPREAD``).
#: Round 65: where it is sure of some corners only, each of those is kept so.
#: Fresh 91919 #75, a far printed 19×19 (cells of 9 pixels): the refiner is
#: sure of three corners (spread 0.012 to 0.119), and respacing onto the lines
#: moved them 0.7 to 1.3 cells, the stones reading surer there: misplaced at
#: 0. Not kept, the fourth corner is completed on the lines, 0.23 of a cell
#: off. Of the 370 dev photos placed under 0.5 (the 307 of round 64 and 63 of
#: 58585 and 91919), the floors took such a grid 30 times, and only there is
#: a corner moved so.
KEPT_CELLS = 0.5
#: A placement read under this confidence, which the refiner moves as a whole
#: less than ``SHIFTED_CELLS`` but ``POLISHED_CELLS`` or more on average, very
#: sure of each corner (spread at most ``POLISHED_SPREAD``), is laid on the
#: corners the refiner gives (:func:`_polished`). Dev photos (hard synthetic,
#: eight seeds, round 48's refiner): of the 129 placements under 0.5, the
#: refiner moves 14 so; 13 then lie closer to the truth, one 0.01 of a cell
#: farther (3333 #198, 0.22 off). 333 #241, half a cell off (misplaced), lies
#: 0.03 off (4 points wrong); the other 13 read 2 points fewer wrong in all
#: (better on 5 boards, worse on 5 by a point or two). Asked a spread of
#: 0.12, three more: two would lie farther (333 #30, 0.25 to 0.48 of a cell
#: off; 2222 #195, 0.22 to 0.30).
POLISHED_BELOW = 0.5
POLISHED_CELLS = 0.15
POLISHED_SPREAD = 0.05
#: A placement under ``DISPUTED_BELOW`` one of whose corners the refiner moves
#: this many cells or more (less than ``DISPUTED_CELLS``), very sure of each it
#: moved so (``POLISHED_SPREAD``) and sure of the others (``SHIFTED_SPREAD``),
#: is laid on the corners the refiner gives too, where its stones read at most
#: ``POLISHED_CORNER_UNSURER`` less sure there: a placement that got one corner
#: wrong (:func:`_polished`). Dev photos (hard synthetic, ten seeds, round 52's
#: code): of the 1,409 placements that reach the polish, the refiner moves a
#: corner 0.4 of a cell or more on 35 the first way leaves; 13 pass, 2 of them
#: misplaced (fresh 6161 #261, at 0.63, a corner 0.72 of a cell off; 5150 #71
#: at 0, 0.82 and 0.64 off), now placed right (0 and 18 points wrong); 2 read
#: better (555 #271 2 to 0 points wrong, 1357 #90 9 to 0), 1111 #283 1 point
#: worse (0 to 1), and 8 as before.
#: Without the certainty, 2222 #229 (placed right, confidence 0.69) would be
#: misplaced: the refiner moves a corner 0.62 of a cell, spread 0.02, and the
#: stones read 0.042 less sure there; the placements this polish mends read
#: at most 0.005 less sure. Without the moved corner's own spread, dev 333 #30
#: (0.25 of a cell off) would lie 0.48 off (its moved corner spreads 0.08).
#: Round 61 halved the loss allowed from 0.02: fresh 99991 #72 (a tilted
#: 19×19 with cells of 34 pixels, read near certain at -0.001, placed right)
#: had a corner moved 0.59 of a cell, under big stones near the camera, and
#: read -0.018 there: misplaced at 0.71, the worst kind of wrong board. At
#: 0.01 the four mends above stand (6161 #261, 5150 #71, 555 #271, 1357 #90)
#: and 1111 #283 is left where it was (0.42 off, 0 points wrong; 1 after the
#: polish, which read 0.017 less sure).
#: Round 62: or at most ``POLISHED_CORNER_TIMES`` times as unsure, whichever
#: allows more. A loss of certainty means more on a board read near certain
#: than on a blurred far one that reads unsure on its true grid too. On six
#: seeds' 957 placements under 0.9, 11 reach this polish: the three it would
#: move off the truth read 11 times as unsure or more (99991 #72 -0.001 to
#: -0.018, 86420 #259 -0.0000 to -0.012, 27182 #195 -0.002 to -0.028; and
#: 2222 #229 above, -0.0001 to -0.042), the eight it moves toward the truth at
#: most 2.7 times: five laid before, and now 86420 #145 (a blurred 19×19 with
#: cells of 10 pixels, misplaced at 0.5 with a corner 0.70 of a cell off:
#: -0.022 to -0.032, now 0.12 off), 86420 #245 (0.40 to 0.13 off) and 99991
#: #102 (0.43 to 0.06); also 1111 #283, left where it was in round 61, now
#: laid again (0.47 to 0.15 off, 1 point more misread).
POLISHED_CORNER_CELLS = 0.4
POLISHED_CORNER_UNSURER = 0.01
POLISHED_CORNER_TIMES = 3.0
#: A placement under ``DISPUTED_BELOW`` that neither way above lays on the
#: refiner's corners, where the refiner moved a corner ``POLISHED_CELLS`` or
#: more (none a shift), its spread at most ``POLISHED_SURE_SPREAD`` at each,
#: is laid there where the stones read at least ``POLISHED_SURER`` surer: the
#: stones say what the refiner's spread alone does not (:func:`_surer_polished`).
#: Dev photos (hard synthetic, eight seeds, 1,262 placements under 0.9): 19
#: are laid so; none lies farther from the truth, 16 closer, and they read 23
#: points wrong before, 12 after (2222 #34, 12 to 3). At 0.001 of surer, 34
#: (one then 0.17 of a cell farther, 2468 #134); at 0, 86 (four farther). Two
#: nearly full boards placed most of a cell off at a corner are mended: 5858
#: #258 (0.77 of a cell off, spread up to 0.17; surer by 0.022) and 6969 #136
#: (a 9×9 0.62 off, spread 0.08; surer by 0.007), now 0.19 and 0.09 off.
POLISHED_SURER = 0.002
POLISHED_SURE_SPREAD = 0.2
#: A doubted placement (the refiner sees one of its corners elsewhere, over
#: ``DISPUTED_CELLS``) is no board where its stones read under this confidence,
#: or where lines go on past each of its sides (:func:`_lines_go_on`). Dev photos
#: (hard synthetic, twenty-two seeds, about 6,000 boards): 11 placements are
#: doubted, 4 of them placed right (at 0.3; two cells past some side of each,
#: nothing as dark as a line: 0.03 of the outer line's darkness at most, where
#: one cell out, on the board's edge, reads up to 6.5 times it on 2222 #96), 7
#: misplaced, the two at 0 among them (3333 #121, 31337 #156). Fresh seeds
#: 16180 and 14142 (benched with round 59's code, looked at only after, dev
#: since) each took a no-board photo: a tiled floor read as an empty board
#: (16180 #35, at 0.3, lines beyond at 0.62 to 1.23 of the outer lines'
#: darkness on each of three sides shown) and a stone bowl under a sliver of a
#: grid (14142 #189, at 0). Round 62: a placement so refused leaves the
#: network's corners to place the board as the last search does, but never as
#: a mere guess. Fresh 24601 #61 (a 13×13, cells of 9 pixels, the lines' grid
#: 2.3 cells off at 0) is then placed on corners the refiner is sure of (0.17
#: of a cell off at most); 3333 #121 (their grid would lie 2.4 cells off, only
#: a guess) and the two no-board photos stay refused. Of 191 photos six seeds
#: refused or missed, one other reaches this: 31337 #156, where the network
#: sees no corners (missed still).
DOUBTED_REFUSED = 0.05
#: A placement under ``DISPUTED_BELOW`` is no board where fewer than this share
#: of its points read as stones and, along each axis, its odd lines read under
#: ``ALTERNATE_LINES`` as dark as its even ones, or the other way
#: (:func:`_on_tiles`). Fresh 80808 #30 (round 63): a floor of small
#: square tiles and two bowls, the lines' grid laid at half the tiles'
#: spacing (0.00 and 0.01; three points read as stones), doubted, taken at
#: 0.3; fresh 60606 #173 (round 64) the same, its corners where the refiner
#: puts them (so not doubted), taken at 0.5 (0.00 both ways). On the true
#: grids of the 514 boards of nineteen dev seeds with no more stones than
#: that share, the lesser axis reads 0.39 or more (median 0.94; one board's
#: lines too faint to read either way): a board placed right is never taken
#: for tiles so.
ALTERNATE_STONES = 0.05
ALTERNATE_LINES = 0.2
#: Nor is one where, along each axis, this share or more of its dark lines
#: have bare lines either side (:func:`vision.grid.lone_lines`). Fresh 64646
#: #216 (round 64): a floor of large square tiles, the lines' grid laid at
#: about a fifth of their spacing, only every fifth line on a joint (1.0 both
#: ways; parity alone reads 0.00 one way, the other unread), doubted, taken at
#: 0.3. On the true grids of the 622 boards of twenty-three dev seeds with
#: fewer stones than ``ALTERNATE_STONES``, the lesser axis reads 0.125 at most
#: (0 on 615; one unread). Read on the placements of the 73 of them that
#: reach this check, 0.14 at most, bar dev 65537 #206, whose grid the lines
#: laid on the floor beside the board (1.0; refused at half the tiles'
#: spacing before this was asked).
LONE_LINES = 0.5
#: A doubted placement with fewer than this share of its points read as stones
#: gives way to the board the network sees elsewhere (:func:`_empty_and_elsewhere`).
NEARLY_EMPTY = 0.05
LINES_GO_ON = 0.5
LINES_GO_ON_SIDES = 3
#: How much surer than a placement under the floors (``MIN_CERTAINTY``) the
#: learned corners' grid must read to replace it without passing them.
DISPUTED_SURER = 0.02
#: Line contrast both ways (:func:`vision.outline.weaker_lines`) under which a
#: placement's lines do not show: a disputing grid whose lines show clearly
#: (``WELL_LINED``) then wins however its stones read (:func:`_learned_grid_wins`).
#: On a pale board under glare, or a busy one, the stones can read as sure on
#: a grid cells off the board's lines as on them. Fresh 30303 #153 (round 67,
#: misplaced 3.8 cells off at 0.3 when benched; lines 0.03, stones -0.0108):
#: the network's refined corners, laid on the board, lie 0.2 of a cell off,
#: their lines 0.52, their stones -0.0103, too little surer; fresh 71717 #255
#: (13 cells off at 0, lines 0.00, -0.0998): 0.02 off, lines 0.71, -0.1092.
#: Dev (round 67: the 506 photos placed under 0.5 on sixteen seeds, and the
#: no-board photos and placements under 0.9 of those two): no other disputing
#: grid's lines reach 0.3 where the placement's are under 0.2. Round 68
#: widened the rule (``LINES_CLEARER``, which takes every placement under
#: this floor) and lets it lay a placement on its own refined corners too
#: (:func:`_between_lines`).
DISPUTED_UNLINED = 0.1
#: Round 68: a disputing grid whose lines show clearly wins too where the
#: placement's show less than ``WELL_LINED`` and less than a
#: ``LINES_CLEARER``-th as clearly: under 0.225 against any grid that shows
#: them clearly, and more where the grid shows them clearer still. Fresh 57575 #194
#: (round 68, misplaced at 0.3 when benched): a pale 9×9 with cells of 25
#: pixels, doubted 4 cells off at two corners, its lines reading 0.44; the
#: network's refined corners, laid on the board, lie 0.05 of a cell off with
#: lines at 3.89, but their stones read less sure (-0.047 against -0.029).
#: Dev (round 68: every dispute candidate more than a cell from a placement
#: whose lines read 0.1 to 0.45 on the round-67 population above, and those
#: of every no-board photo, every board lost and every placement under 0.5 of
#: 57575 and 40404; 131 photos): of the 20 candidates whose lines read
#: ``WELL_LINED`` or more, every one lies within 0.28 of a cell of the truth,
#: every placement they dispute 1.14 cells off or more, and their lines read
#: 2.1 to 10 times the placement's but for 52525 #198's (1.1 times, which its
#: stones already took). 57575 #194 is the only one this changes.
LINES_CLEARER = 2.0
#: A placement the lines leave sure (``SURE_EVIDENCE``) that reads this many
#: stones or fewer is checked against the corner network: where it sees four
#: corners at ``AGREED_HEAT`` or more, their grid more than ``ELSEWHERE_CELLS``
#: from the placement's, the placement goes to the dispute (:func:`_disputed`)
#: at confidence at most ``DOUBTED_CONFIDENCE``, with ``details["elsewhere"]``
#: how far (:func:`_sure_unless_elsewhere`). Lines as regular as a board's can
#: be a tiled floor's. Dev photos (hard synthetic, twelve seeds: eight dev and
#: four fresh): of the 1,239 sure placements, 114 read one stone or none; the
#: network sees corners more than 2 cells from a sure placement on one only,
#: fresh 7373 #276 (heat 0.52, 6.8 cells), a 9×9 beside floor tiles whose 9×9
#: lattice the lines took at 1.00; more than a cell, on three more, placed
#: right (1.1 to 1.2 cells, 21 to 73 stones).
#: Every sure placement is also asked of the refiner, which moves a board the
#: lines placed a cell off as a whole (``SHIFTED_CELLS``, ``SHIFTED_SPREAD``).
#: Dev photos (fourteen seeds: eight dev and six fresh): of the 1,440 sure
#: placements, two are misplaced and the refiner moves those two only half a
#: cell or more on average: fresh 9595 #268 (1.06 cells, spread 0.022; a dark
#: board with 22 stones a cell off, its grid on the refined corners every point
#: right) and 7373 #276 (1.57, spread 0.26: not sure; the network's check
#: takes it). The next moves 0.24 of a cell.
#: Placements sure after their checks (at ``DISPUTED_BELOW`` or more) are asked
#: the same, and disputed too where the refiner moves their corners
#: ``SHIFTED_CELLS`` on average, however unsure of them, and the network sees
#: the board's corners ``ELSEWHERE_CELLS`` away. Dev photos (eighteen seeds):
#: of their 365 such placements, two misplaced, the refiner moves one's corners
#: that far, fresh 8282 #101 (2.0 cells, spread 0.14; the network 10.9 cells
#: away at 0.93), and the next 0.47 (5150 #88, placed right; the network 1.4
#: cells away).
EMPTY_STONES = 1
ELSEWHERE_CELLS = 2.0
#: Where the network's four corners place no board, this many guesses from three
#: of them (:func:`_found_by_three_corners`) are placed at most...
MOST_GUESSES = 12
#: ... and this many must place grids within ``AGREE_CELLS`` of one another.
GUESSES_AGREE = 2
AGREE_CELLS = 0.5
#: A placement under ``LATTICE_BELOW`` is refitted to the lattice through its
#: stones' centres (:func:`_on_stones_lattice`), found on the board straightened
#: at ``LATTICE_CELL`` pixels a cell (the blob detector's stones are 12 pixels
#: in area at least). The refitted grid takes its place where it moves a corner
#: ``LATTICE_MOVED`` cells or more, at least ``LATTICE_STONES`` blobs and
#: ``LATTICE_SHARE`` of them lie on it, ``LATTICE_RESIDUAL`` off at the median,
#: and the stones read at most ``LATTICE_UNSURER`` less sure on it. Dev photos
#: (fifteen seeds: the 88 placements under 0.2 with blobs to fit): on tiny
#: boards (6 to 8 pixels a cell) with lines blurred away, a placement
#: 0.6 to 0.75 of a cell off at one corner reads about as sure as the truth,
#: and the stones' lattice lands 0.15 to 0.31 off (fresh 7373 #158, 5150 #14,
#: 777 #47); elsewhere blob centres sit a little off their points (a stone's
#: height at a tilt, shading), so a refit moving corners less than
#: ``LATTICE_MOVED`` mostly lands further from the truth, and a refit whose
#: stones read less sure lands wrong (7373 #17, 5150 #71, 6969 #154).
LATTICE_BELOW = 0.2
LATTICE_CELL = 20
LATTICE_MOVED = 0.3
LATTICE_STONES = 12
LATTICE_SHARE = 0.6
LATTICE_RESIDUAL = 0.15
LATTICE_UNSURER = 0.002


def detect_board(
    image: npt.NDArray[np.uint8],
    *,
    size: int = 19,
    corners: npt.ArrayLike | None = None,
    rng: np.random.Generator | None = None,
) -> BoardDetection:
    """Find a board's grid in a photo, with no clicks.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3) or (H, W), uint8
        BGR (or grey) photo.
    size : int
        Board size N, one of ``SIZES``.
    corners : array-like of shape (4, 2), optional
        Image ``(x, y)`` of the corner intersections board[0][0], board[0][N-1],
        board[N-1][N-1], board[N-1][0], when known; skips the search.
    rng : numpy.random.Generator, optional
        Randomness for RANSAC; a fixed seed by default, so results repeat.

    Returns
    -------
    BoardDetection
        Truthy with ``.grid``, ``.corners``, ``.intersections`` and ``.confidence``;
        falsy with ``.reason`` (``"no board found: ..."``) when no grid fits.
        ``details["centred"]`` is the certainty gained where the grid was moved
        onto its stones; ``details["by_stones"]`` is set where the stones'
        lattice placed it, ``details["outline"]`` where the grid was found in
        the board's outline (:func:`vision.outline.find_by_outline`);
        ``details["stones_outline"]`` where the grid was found in the outline
        of a nearly full board's stones (:func:`vision.outline.stones_outlines`);
        ``details["diagonal"]`` the class of the blobs' lattice taken, where the
        gaps between crowded stones made it finer
        (:func:`vision.lattice.diagonal_sublattice`);
        ``details["snapped"]`` counts the snaps onto the lines near it that made
        an unsure placement's stones read surer (``SNAP_SURER``);
        ``details["stretched"]`` counts the stretches that laid its lines on
        the board's with its stones reading surer (``STRETCH_SURER``) or its
        lines clearer (``STRETCH_CLEARER``) (:func:`vision.grid.stretch_to_lines`);
        ``details["moved_columns"]`` and ``details["moved_rows"]`` the lines
        its window moved to take in stones left outside it
        (:func:`vision.centring.take_in_stones`), ``details["ends_columns"]``
        and ``details["ends_rows"]`` those it moved where the board's lines end
        a line beyond it (:func:`vision.centring.take_in_line_ends`), and
        ``details["crossings_columns"]`` and ``details["crossings_rows"]`` those
        it moved toward lines crossing beyond a side
        (:func:`vision.grid.settle_on_crossings`). ``details["doubled"]`` is set
        where an unsure placement read surer at twice its spacing along an axis
        (:func:`vision.grid.doubled_spacings`). ``details["outline_stretched"]``
        is set where the last resort found it: the outline's grid stretched onto
        the lines (:func:`vision.outline.find_by_stretched_outline`);
        ``details["wide"]`` where the last search but one found it, the lines
        on a wider crop (:func:`vision.grid.find_wide_region_grid`);
        ``details["learned"]`` the heat of the learned corners where the grid
        stands on them (:mod:`vision.corners`), after every other search
        (``details["guessed"]`` where no floor took their grid and it is given
        as a guess, the network seeing them at ``GUESSED_HEAT`` or more, at
        confidence at most ``GUESSED_CONFIDENCE``), and
        ``details["disputed"]`` where those corners, or the placement's own as
        the refiner placed them again (``details["own"]``), disputed an unsure
        placement and their grid read surer (:func:`_disputed`);
        ``details["refined"]`` where the grid stands on corners as the refiner
        placed them again (:func:`vision.corners.refine_corners`),
        ``details["unrefined"]`` where it stands on the network's own corners,
        its stones reading clearly surer there than on the refiner's
        (:func:`_unrefined`; at ``GUESSED_CONFIDENCE`` at most), and
        ``details["spread"]`` where the last search took it only because the
        refiner is sure of all four (the largest spread, in cells);
        ``details["between_lines"]`` where the refiner moved an unsure
        placement's corners under a cell each, very sure of each, and their
        grid's lines show where the placement's do not, or fall between the
        board's (:func:`_between_lines`; with ``details["refined"]``);
        ``details["shifted"]`` where the refiner moved an unsure placement's
        own corners as a whole, sure of each, and their grid replaced it
        (``details["again"]`` where refined once more from its own corners);
        ``details["doubted"]`` where it moved one more than ``DISPUTED_CELLS``
        and no grid replaced the placement (its confidence then at most
        ``DOUBTED_CONFIDENCE``; ``details["polished_corner"]`` where its
        refined corners did, the refiner very sure of each,
        :func:`_doubted_corner`; ``details["completed"]`` where they did, the
        one the refiner is unsure of sought on the lines,
        :func:`_doubted_completed`, as on the network's corners in the last
        search, :func:`_completed`; ``details["overruled"]`` where the network's
        corners, as refined, replaced it though its stones hardly stand out, at
        confidence at most ``GUESSED_CONFIDENCE``: :func:`_overruled`), and
        ``details["polished"]`` where it moved a placement under
        ``POLISHED_BELOW`` less than that, very sure of each corner, and its
        grid was laid there (:func:`_polished`;
        ``details["polished_corner"]`` where it moved one corner of a placement
        under ``DISPUTED_BELOW`` ``POLISHED_CORNER_CELLS`` or more, very sure
        of it, and the stones read about as sure there;
        ``details["polished_surer"]`` where the stones read clearly surer on
        its corners; ``details["polished_completed"]`` where it was very sure
        of three and the fourth was sought on the lines). ``details["elsewhere"]``
        is set where the lines placed a nearly empty grid sure and the network
        saw the board's corners that many cells away, so the placement was
        disputed (:func:`_sure_unless_elsewhere`), and on the network's grid
        that replaced a doubted, nearly empty one so
        (:func:`_empty_and_elsewhere`); ``details["refined_elsewhere"]``
        where the refiner moved a sure placement's corners as a whole, sure of
        each, so many cells on average (both kept where the placement stood
        the dispute; a grid that replaced it names its own way). For a
        placement the lines left unsure, ``details["certainty"]`` is how sure its
        stones read, and the confidence is at most ``1 + certainty /
        UNSURE_READING``: a grid lines off reads its stones unsure.
        ``details["stones_lattice"]`` is set where a placement under
        ``LATTICE_BELOW`` was refitted to the lattice through its stones'
        centres (:func:`_on_stones_lattice`): its farthest corner's move, in cells.

    Raises
    ------
    VisionError
        If the image is not a uint8 array of a supported shape, or ``size`` is not
        supported.
    """
    # The checks below read many grids more than once, and the line maps the
    # search drew: each is worked out once (a grey photo's checks read a colour
    # copy, which keeps its own).
    with photo_kept(image):
        found = find_grid(image, size=size, corners=corners, rng=rng)
        if corners is not None or (found.grid is None and not found.details.get("searched")):
            return found
        colour = np.asarray(
            image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8
        )
        with photo_kept(colour):
            lines_sure = (
                found.grid is not None and found.details.get("evidence", 0.0) >= SURE_EVIDENCE
            )
            if found.grid is None:
                found = _every_other_search(colour, size, rng, found)
            elif not lines_sure:
                found = _checked_further(colour, size, rng, found)
            # Sure by its lines or by the checks, a placement is asked again;
            # unsure, disputed.
            if found.grid is not None and (lines_sure or found.confidence >= DISPUTED_BELOW):
                found = _sure_unless_elsewhere(colour, found)
            else:
                found = _disputed(colour, found)
            return _on_stones_lattice(colour, found)


def _on_stones_lattice(colour: npt.NDArray[np.uint8], found: BoardDetection) -> BoardDetection:
    """A very unsure placement refitted to the lattice through its stones, where that holds.

    Stones sit on intersections, and round blobs of a stone's size on the board
    straightened by the placement are their centres (:func:`stone_centres`);
    the lattice refitted to them from the placement
    (:func:`vision.lattice.refit_point_lattice`) replaces it where it moves a
    corner ``LATTICE_MOVED`` cells or more, most blobs lie on it, and the stones
    read about as sure on it (see ``LATTICE_BELOW``): on a tiny board whose lines
    blur away, the stones' reading alone hardly tells a grid a corner over half
    a cell off. The confidence stays (the board is no surer);
    ``details["stones_lattice"]`` is the farthest corner's move, in cells.
    """
    grid = found.grid
    if grid is None or found.confidence >= LATTICE_BELOW:
        return found
    n = grid.size
    cell = float(LATTICE_CELL)
    to_board = np.array([[cell, 0.0, cell], [0.0, cell, cell], [0.0, 0.0, 1.0]])
    warp = to_board @ np.linalg.inv(grid.homography)
    side = LATTICE_CELL * (n + 1)
    board = cv2.warpPerspective(colour, warp, (side, side), flags=cv2.INTER_LINEAR)
    centres, _ = stone_centres(np.asarray(cv2.cvtColor(board, cv2.COLOR_BGR2GRAY), dtype=np.uint8))
    if len(centres) < LATTICE_STONES:
        return found
    points = apply_homography(np.linalg.inv(warp), centres)
    lattice = refit_point_lattice(points, grid.homography, n)
    if lattice is None or not (
        lattice.count >= max(LATTICE_STONES, LATTICE_SHARE * len(points))
        and float(np.median(lattice.residuals)) <= LATTICE_RESIDUAL
    ):
        return found
    last = float(n - 1)
    corners = apply_homography(
        lattice.homography, np.array([[0.0, 0.0], [last, 0.0], [last, last], [0.0, last]])
    )
    moved = float(_corner_moves(grid, corners).max())
    if moved < LATTICE_MOVED:
        return found
    try:
        refitted = grid_from_corners(corners, size=n, image_shape=grid.image_shape)
    except VisionError:
        return found
    sure_refitted = certainty(colour, refitted)
    if sure_refitted < certainty(colour, grid) - LATTICE_UNSURER:
        return found
    details = {**found.details, "stones_lattice": moved, "certainty": sure_refitted}
    return BoardDetection(grid=refitted, confidence=found.confidence, details=details)


def _sure_unless_elsewhere(colour: npt.NDArray[np.uint8], found: BoardDetection) -> BoardDetection:
    """A sure placement, unless a second look sees the board elsewhere.

    Sure by its lines, or by the checks after them (at ``DISPUTED_BELOW`` or
    more). Where the refiner moves its four corners as a whole
    (``SHIFTED_CELLS`` on average), sure of each (``SHIFTED_SPREAD``), the
    placement is disputed (:func:`_disputed`, at ``DOUBTED_CONFIDENCE`` at most;
    ``details["refined_elsewhere"]`` the mean move, in cells): a sparse board's
    stones read as sure on lines a cell off, and the lines plain enough to stop
    the search can be a wrong window of them. So too where the network sees
    the board's corners elsewhere (``ELSEWHERE_CELLS``; ``details["elsewhere"]``)
    and the placement reads nearly empty (``EMPTY_STONES``), or the refiner
    moved its corners as far, however unsure of them: two looks then say the
    board is elsewhere (both details set), and in the dispute a grid need only
    read as sure as the placement (:func:`_learned_grid_wins`).
    """
    grid = found.grid
    assert grid is not None
    own = refine_corners(colour, grid.corners, grid.size)
    moved = float(_corner_moves(grid, own).mean())
    if moved >= SHIFTED_CELLS and _largest_spread(colour, own, grid.size) <= SHIFTED_SPREAD:
        confidence = min(found.confidence, DOUBTED_CONFIDENCE)
        details = {**found.details, "refined_elsewhere": moved}
        return _disputed(colour, BoardDetection(grid=grid, confidence=confidence, details=details))
    if moved < SHIFTED_CELLS and round(_stone_share(colour, grid) * grid.size**2) > EMPTY_STONES:
        return found
    guess = find_corners(colour)
    if guess is None or guess.heat < AGREED_HEAT:
        return found
    try:
        learned = grid_from_corners(guess.corners, size=grid.size, image_shape=grid.image_shape)
    except VisionError:
        return found
    apart = _cells_apart(grid, learned)
    if apart <= ELSEWHERE_CELLS:
        return found
    confidence = min(found.confidence, DOUBTED_CONFIDENCE)
    details = {**found.details, "elsewhere": apart}
    if moved >= SHIFTED_CELLS:
        details["refined_elsewhere"] = moved
    return _disputed(colour, BoardDetection(grid=grid, confidence=confidence, details=details))


def _every_other_search(
    colour: npt.NDArray[np.uint8],
    size: int,
    rng: np.random.Generator | None,
    lines: BoardDetection,
) -> BoardDetection:
    """Where the lines placed no board that reads (``lines`` says why): every other search.

    The other searches (:func:`_other_searches`), and failing them the last
    ones (:func:`_found_on_wider_region`, then the learned corners), whether
    the lines gave no grid or a bare one.
    """
    others = _other_searches(colour, size, rng, lines)
    return others if others else _found_on_wider_region(colour, size, rng, others)


def _found_on_wider_region(
    colour: npt.NDArray[np.uint8],
    size: int,
    rng: np.random.Generator | None,
    searched: BoardDetection,
) -> BoardDetection:
    """The lines' grid on a wider crop (:func:`vision.grid.find_wide_region_grid`), checked.

    The last search but one, where every other failed (``searched`` says why);
    failing, the learned corners' (:func:`_found_by_learned_corners`). Its
    grid is the line search's own, on more of the photo, so it is checked as
    the lines' grid is (:func:`_checked_further`), not by the last resorts'
    floors: on dev 2468 #33 (glare over half a 13×13 board) the right grid's
    stones read -0.050, on the outline's floor, and stand out by 0.037.
    Failing, the reason names this search after the others.
    """
    wide = find_wide_region_grid(colour, size=size, rng=rng)
    if wide.grid is None:
        return _found_by_learned_corners(colour, size, _failed_too(searched, wide))
    if wide.details.get("evidence", 0.0) >= SURE_EVIDENCE:
        return wide
    checked = _checked_further(colour, size, rng, wide, searched=searched)
    return checked if checked else _found_by_learned_corners(colour, size, checked)


def _found_by_learned_corners(
    image: npt.NDArray[np.uint8], size: int, searched: BoardDetection
) -> BoardDetection:
    """The grid on the corners the learned network points at (:mod:`vision.corners`), checked.

    The very last search, where every other failed (``searched`` says why): the
    network sees a board by its shape where its lines do not show. Its corners
    are placed again by the refiner (:func:`vision.corners.refine_corners`; on
    200 dev boards a median 0.04 of a cell off, against the network's 0.28),
    unless the stones read clearly surer on the network's own and their grid
    passes the floors (:func:`_unrefined`: then at no more than a guess's
    ``GUESSED_CONFIDENCE``).
    Its grid, centred on its stones and laid on the board, must read as a
    board by the last resorts' floors (:func:`_checked_reading`), or, where
    the network is sure of its corners (``LEARNED_HEAT``), by the weaker floor
    of :func:`_reads_as_learned_board`, at confidence at most
    ``LEARNED_CONFIDENCE``. Failing those, where the refiner is sure of all
    four corners where it put them (their spread at most ``SHIFTED_SPREAD``,
    ``details["spread"]`` the largest), their grid is the board's however its
    stones read, at confidence at most ``LEARNED_CONFIDENCE`` too, falling with
    how unsure they read: glare, blur or a low view can leave a board's stones
    unsure or standing out little even on its true grid, while its corners show.
    So too where the network is sure of its corners (``AGREED_HEAT``) and the
    refiner agrees, moving none more than ``AGREED_CELLS`` (``details["agreed"]``
    the largest move): two looks at the corners, each unsure alone, agree.
    Where the refiner is sure of the corners so, a grid the floors took is kept
    only within ``KEPT_CELLS`` of them: centring on a nearly empty board's few
    stones can move a grid off corners that show (``details["left"]``, how far).
    Where it is not, the same holds for each corner it is sure of (spread at
    most ``SHIFTED_SPREAD``).
    Failing all that and the completion (:func:`_completed`), the grid is given
    as a guess, at confidence at most ``GUESSED_CONFIDENCE``, where the network
    sees its corners at ``GUESSED_HEAT`` or more and its stones read surer on
    it than half a cell off (``GUESSED_CONTRAST``;
    ``details["guessed"]`` the contrast): the network sees a board there, and a
    board placed a little off at a guess's confidence tells a user more than
    no board at all (``kifu detect --draw`` shows where). Failing even that,
    guesses from three of the network's corners may agree on a grid
    (:func:`_found_by_three_corners`).
    """
    guess = find_corners(image)
    why = "the network sees no four corners"
    if guess is not None:
        found = _placed_on_corners(image, size, guess)
        if isinstance(found, BoardDetection):
            return found
        why = found
    other = _found_by_three_corners(image, size, guess)
    if isinstance(other, BoardDetection):
        return other
    why = f"{why}; three corners: {other}" if other else why
    return BoardDetection(grid=None, reason=f"{searched.reason}; learned corners: {why}")


def _placed_on_corners(
    image: npt.NDArray[np.uint8], size: int, guess: CornerGuess, *, first: bool = True
) -> BoardDetection | str:
    """The grid on the network's corners ``guess``, checked (:func:`_found_by_learned_corners`).

    A guess not the network's ``first`` (:func:`_found_by_three_corners`) is
    neither taken by the weaker floor for corners the network is sure of nor
    given as a mere guess: its heat is three corners', not four. The grid on
    the network's own corners is tried first where it reads clearly surer
    than on the refined ones (:func:`_unrefined`; the two looks then place
    the corners apart, however sure the refiner is of its own). Failing, says
    why, for the failure's reason.
    """
    height, width = image.shape[:2]
    corners = refine_corners(image, guess.corners, size)  # an unreadable model raises
    try:
        grid = grid_from_corners(corners, size=size, image_shape=(height, width))
    except VisionError:
        return "its corners make no quadrilateral"
    details = {"learned": guess.heat, "refined": 1.0}
    spreads = corner_spread(image, corners, size)
    spread = float(np.max(spreads))
    agreed = float(_corner_moves(grid, guess.corners).max())
    sure_corners = spread <= SHIFTED_SPREAD or (
        guess.heat >= AGREED_HEAT and agreed <= AGREED_CELLS
    )
    # The last resorts' floors, then, where the network is sure, the weaker one.
    checks: list[tuple[float, Callable[[npt.NDArray[np.uint8], Grid, float], bool] | None]]
    checks = [(FAINT_CONFIDENCE, None)]
    if first and guess.heat >= LEARNED_HEAT:
        checks.append((LEARNED_CONFIDENCE, _reads_as_learned_board))
    unrefined = _unrefined(image, guess, grid, checks)
    if unrefined is not None:
        return unrefined
    # The corners the refiner is sure of: all four where it is sure of the board.
    sure_of = np.full(4, True) if sure_corners else spreads <= SHIFTED_SPREAD
    left = 0.0  # the farthest a grid the floors took left corners the refiner is sure of
    for most, reads in checks:
        found = BoardDetection(grid=grid, confidence=most, details=details)
        checked = _checked_reading(image, found, laid=True, reads=reads)
        if checked.grid is None:
            continue
        sure_ones = np.flatnonzero(sure_of).tolist()
        moved = max((_corner_moved(grid, checked.grid, k) for k in sure_ones), default=0.0)
        if moved <= KEPT_CELLS:
            return checked
        left = max(left, moved)
    if sure_corners:
        sure = certainty(image, grid)
        confidence = min(LEARNED_CONFIDENCE, _reading_confidence(sure))
        details = {**details, "spread": spread, "certainty": sure}
        if spread > SHIFTED_SPREAD:
            details["agreed"] = agreed
        if left > KEPT_CELLS:
            details["left"] = left
        return BoardDetection(grid=grid, confidence=confidence, details=details)
    completed = _completed(image, grid, spreads, details, checks)
    if isinstance(completed, BoardDetection):
        return completed
    failed = f"its grid does not read as a board (heat {guess.heat:.2f})"
    if left > KEPT_CELLS:
        failed = (
            f"its grid reads as a board only {left:.2f} cells off a corner the refiner is "
            f"sure of (heat {guess.heat:.2f})"
        )
    if not first:
        return f"{failed}; {completed}"
    if guess.heat < GUESSED_HEAT:
        return (
            f"{failed}; {completed}; nor is it a guess: the network is too unsure of its "
            f"corners (under {GUESSED_HEAT:g})"
        )
    contrast = half_cell_contrast(image, grid)
    if contrast > GUESSED_CONTRAST:
        sure = certainty(image, grid)
        return BoardDetection(
            grid=grid,
            confidence=min(GUESSED_CONFIDENCE, _reading_confidence(sure)),
            details={**details, "guessed": contrast, "certainty": sure},
        )
    return (
        f"{failed}, the refiner"
        f" is unsure of its corners (spread up to {spread:.2f} of a cell) and moves"
        f" them up to {agreed:.2f} of a cell; {completed}; as a guess, its stones"
        f" read no surer on it than half a cell off ({contrast:+.4f})"
    )


def _unrefined(
    image: npt.NDArray[np.uint8],
    guess: CornerGuess,
    refined: Grid,
    checks: Sequence[tuple[float, Callable[[npt.NDArray[np.uint8], Grid, float], bool] | None]],
) -> BoardDetection | None:
    """The grid on the network's own corners, where its stones read clearly surer there.

    The refiner places corners to a small share of a cell where a cell spans
    enough pixels to show its lines; on a far, blurred board it can move the
    network's corners off the board's grid, and the stones then read far less
    sure there than on the network's own (``UNREFINED_SURER``). Such a grid
    must pass the floors of ``checks`` as it stands; the refiner placing the
    corners elsewhere, it is no surer than a guess (``GUESSED_CONFIDENCE``),
    and where it fails, the refined grid is checked as though it had not been
    tried.
    """
    try:
        own = grid_from_corners(guess.corners, size=refined.size, image_shape=refined.image_shape)
    except VisionError:
        return None
    if not certainty(image, own) >= certainty(image, refined) + UNREFINED_SURER:  # NaN: not surer
        return None
    details = {"learned": guess.heat, "unrefined": 1.0}
    for most, reads in checks:
        found = BoardDetection(grid=own, confidence=min(most, GUESSED_CONFIDENCE), details=details)
        checked = _checked_reading(image, found, laid=True, reads=reads)
        if checked:
            return checked
    return None


def _found_by_three_corners(
    image: npt.NDArray[np.uint8], size: int, first: CornerGuess | None
) -> BoardDetection | str:
    """The grid that guesses from three of the network's corners agree on, checked.

    Where the network's four corners (``first``) place no board, one of them is
    often a stray peak (a stone bowl, a glare spot) while three lie on the
    board's corners. Each three of its first look's peaks, the fourth corner
    completed (:func:`vision.corners.corner_guesses`, at most ``MOST_GUESSES``),
    is placed and checked as the first guess is (:func:`_placed_on_corners`),
    but not given as a mere guess. Wrong guesses scatter, each placed somewhere
    else; guesses on the board's three corners land on one grid. So a grid is
    taken only where at least ``GUESSES_AGREE`` guesses place grids within
    ``AGREE_CELLS`` of it: the one most agree on (the surest, on a tie), at the
    confidence its checks gave; ``details["three_corners"]`` says how many
    agreed. Failing, says why, for the failure's reason (nothing, where there
    are no such guesses).
    """
    guesses = [
        guess
        for guess in corner_guesses(image)
        if first is None or np.abs(guess.corners - first.corners).max() >= SAME_GUESS_PIXELS
    ][:MOST_GUESSES]
    placed: list[tuple[BoardDetection, Grid]] = []
    for guess in guesses:
        found = _placed_on_corners(image, size, guess, first=False)
        if isinstance(found, BoardDetection) and found.grid is not None:
            placed.append((found, found.grid))
    best: BoardDetection | None = None
    agreeing = 0
    for found, grid in placed:
        agree = sum(1 for _, other in placed if _cells_apart(grid, other) <= AGREE_CELLS)
        if best is None or (agree, found.confidence) > (agreeing, best.confidence):
            best, agreeing = found, agree
    if not guesses:
        return ""
    if best is None or agreeing < GUESSES_AGREE:
        return (
            f"of {len(guesses)} guesses from three of the network's corners, {len(placed)}"
            f" place a grid that reads as a board and at most {agreeing} agree on one"
        )
    return BoardDetection(
        grid=best.grid,
        confidence=best.confidence,
        details={**best.details, "three_corners": float(agreeing)},
    )


def _completed(
    image: npt.NDArray[np.uint8],
    grid: Grid,
    spreads: npt.NDArray[np.float64],
    details: dict[str, float],
    checks: list[tuple[float, Callable[[npt.NDArray[np.uint8], Grid, float], bool] | None]],
) -> BoardDetection | str:
    """The learned corners' grid with its most unsure corner sought on the lines, if it reads.

    Where the refiner is unsure of the corners, often one is wrong and three are
    right: a corner under glare or an arm's shadow, which both looks guess a
    cell or more off while the lines leading to it show. That corner (the
    refiner's widest spread) is moved to where the grid's lines lie best on the
    board's (:func:`vision.grid.corner_on_lines`), and the grid, its lines
    refined or, failing that, as moved, must then pass the same floors
    (``checks``) as the learned corners' own; ``details["completed"]`` says how
    far the corner moved, in cells. Dev photos (hard synthetic, eight seeds,
    round 50): of the 12 boards every other search missed or misplaced, this
    places 1111 #106 (a 13×13, one corner 1.2 cells off under glare; refined
    lines, 0.05 of a cell off) and 555 #249 (one corner 1.7 cells off; as moved,
    0.27 off); the others' completed grids do not pass the floors. Failing,
    says why, for the failure's reason.
    """
    if not np.all(np.isfinite(spreads)):
        return "the refiner gives no spread at some corner"
    corner = int(np.argmax(spreads))
    found = corner_on_lines(image, grid, corner)
    if found is None:
        return (
            f"its corner {corner} finds no best place on the lines within"
            f" {CORNER_REACH:g} cells of it"
        )
    placed, lined = found
    for completed in (lined, placed):  # lines refined first: they mend a grid a little off
        if completed is None:
            continue
        moved = _corner_moved(grid, completed, corner)
        for most, reads in checks:
            checked = _checked_reading(
                image,
                BoardDetection(
                    grid=completed, confidence=most, details={**details, "completed": moved}
                ),
                laid=True,
                reads=reads,
            )
            if checked:
                return checked
    moved = _corner_moved(grid, placed, corner)
    return (
        f"with its corner {corner} moved {moved:.2f} cells onto the lines,"
        " it does not read as a board either"
    )


def _corner_moved(grid: Grid, moved: Grid, corner: int) -> float:
    """How far ``grid``'s corner ``corner`` lies from the nearest of ``moved``'s, in its cells.

    The nearest, since a grid placed anew names its corners by the image's
    top-left, not in ``grid``'s order.
    """
    cell = float(np.mean(np.linalg.norm(np.roll(grid.corners, -1, axis=0) - grid.corners, axis=1)))
    apart = np.linalg.norm(moved.corners - grid.corners[corner], axis=1).min()
    return float(apart) / max(cell / (grid.size - 1), 1e-9)


def _failed_too(searched: BoardDetection, wide: BoardDetection) -> BoardDetection:
    """``searched``'s failure, with the wider region's reason after the others'."""
    reason = wide.reason.removeprefix("no board found: ")
    return BoardDetection(grid=None, reason=f"{searched.reason}; wide region: {reason}")


def read_board(
    image: npt.NDArray[np.uint8],
    *,
    size: int = 19,
    corners: npt.ArrayLike | None = None,
    rng: np.random.Generator | None = None,
) -> tuple[BoardDetection, StoneReading | None]:
    """Find a board's grid in a photo and read its stones: one photo read whole.

    :func:`detect_board`, then :func:`vision.stones.read_stones` on the grid it
    found (None where it found none), sharing their work: a detection that
    checked its grid against the stones has straightened that board and
    weighed it already (:func:`vision.stones.straightened`). The same results
    as the two called one after the other.
    """
    colour = np.asarray(
        image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8
    )
    with photo_kept(colour):
        detection = detect_board(colour, size=size, corners=corners, rng=rng)
        if detection.grid is None:
            return detection, None
        return detection, read_stones(colour, detection.grid)


def _checked_further(
    colour: npt.NDArray[np.uint8],
    size: int,
    rng: np.random.Generator | None,
    found: BoardDetection,
    *,
    searched: BoardDetection | None = None,
) -> BoardDetection:
    """The unsure placement ``found`` checked against the stones, the outline and the lines.

    A grid on which neither stones nor lines stand out is no board's: the
    other searches run then, and the last ones (:func:`_every_other_search`),
    as where the lines placed nothing; unless they ran already and failed
    (``searched``), whose failure is returned instead.
    """
    assert found.grid is not None
    grid, gain = centre_on_stones(colour, found.grid)
    details = {**found.details, "centred": gain} if gain != 0.0 else dict(found.details)
    sure = certainty(colour, grid)
    if sure + STONES_SURER <= 0.0:
        by_stones = _stones_reading_better(
            colour, grid, sure, blobs_tried=bool(found.details.get("by_stones"))
        )
        if by_stones is not None:
            grid, sure, stones_details = by_stones
            # The first grid's moves and lattice, no longer this grid's.
            for replaced in ("centred", "by_stones", "stones", "loose", "touching", "diagonal"):
                details.pop(replaced, None)
            details.update(stones_details)
    better = _outline_reading_better(colour, grid, sure, found.details.get("evidence", 0.0))
    if better is not None:
        grid, sure = better.grid, better.certainty
        for replaced in ("by_stones", "stones", "loose", "touching", "centred"):
            details.pop(replaced, None)
        details.update(
            outline=float(better.rank),
            contrast=better.contrast,
            lines=better.lines,
        )
    grid, sure = _laid_on_board(colour, grid, sure, details)
    if sure < DOUBLED_UNSURE:
        doubled = _doubled_surer(colour, grid, sure)
        if doubled is not None:
            grid, sure = doubled
            details["doubled"] = 1.0
    if sure < LINED_CERTAINTY:
        lines = line_contrast(colour, grid)
        if lines < MIN_LINE_CONTRAST:
            contrast = half_cell_contrast(colour, grid)
            if contrast < BARE_CONTRAST:
                bare = BoardDetection(
                    grid=None,
                    reason="no board found: a grid's crossings, but neither stones nor lines "
                    f"stand out on it (stones {contrast:.3f}, lines {lines:.2f} against "
                    "half a cell off)",
                )
                if searched is not None:
                    return _failed_too(searched, bare)
                return _every_other_search(colour, size, rng, bare)
    details["certainty"] = sure
    confidence = min(found.confidence, _reading_confidence(sure))
    return BoardDetection(grid=grid, confidence=confidence, details=details)


def _disputed(image: npt.NDArray[np.uint8], found: BoardDetection) -> BoardDetection:
    """An unsure placement, or the grid on refined or learned corners where they dispute it.

    Where a placement reads less sure than ``DISPUTED_BELOW``, the refiner
    (:func:`vision.corners.refine_corners`) looks again at the placement's own
    four corners, and the network's four corners dispute it too: as the refiner
    places them again, where the network sees them at heat ``DISPUTED_HEAT`` or
    more, and as the network gives them, where it is sure of them
    (``LEARNED_HEAT``). The placement's own corners, refined, dispute it where
    one moved more than ``DISPUTED_CELLS``; where none did, a placement
    whose lines do not show where its refined corners' grid shows them
    (:func:`_lined_not_placed`) is laid there first (:func:`_between_lines`).
    Of the grids that win
    (:func:`_learned_grid_wins`), the one whose stones read surest takes the
    placement's place, at confidence at most ``FAINT_CONFIDENCE``: two searches
    disagreed. ``details["refined"]`` is set where refined corners' grid took
    it, ``details["own"]`` where they were the placement's own (else
    ``details["learned"]`` is the network's heat). Where none wins but the
    refiner moved the placement's own corners as a whole, sure of them, their
    grid replaces it (:func:`_shifted`). Failing that, where the refiner moved
    one more than ``DISPUTED_CELLS``, the placement stands at confidence at most
    ``DOUBTED_CONFIDENCE`` (``details["doubted"]``): the refiner sees its board
    elsewhere, unless its stones read under ``DOUBTED_REFUSED``: then the
    placement is no board, and the network's corners are placed and checked as
    the last search places them (:func:`_placed_on_corners`, as a guess not its
    first: never a mere guess), failing which no board is found; nor is one
    where lines go on past its sides (:func:`_lines_go_on`). Else a nearly
    empty one gives way to the board the network sees elsewhere
    (:func:`_empty_and_elsewhere`); failing that, one laid on a floor's tiles
    at a fraction of their spacing is no board (:func:`_on_tiles`); one whose
    refined corners the refiner is very sure of is laid on them where its
    stones read at least as sure (:func:`_doubted_corner`); and one the
    refiner is sure of three corners of gives way to those corners, the
    fourth sought on the lines (:func:`_doubted_completed`). A doubted
    placement no step replaced stands, at ``DOUBTED_CONFIDENCE`` at most.
    Where it moved none so far, one laid on tiles so is no board either,
    and the placement may be laid where it put them (:func:`_polished`).
    Where it moved every corner so far and the network sees no four corners
    at all, no board is found: a tiled floor's lines read as an empty board's
    (fresh 8282 #237, a floor of square tiles with a loose stone, at 0.3), and
    the two looks see no board there. Dev photos (eighteen seeds): of the 174
    placements at ``DOUBTED_CONFIDENCE`` or less, 10 are doubted, and the
    network sees no corners for that one only.

    The placement's own corners, refined, need no network: on dev 555 #268 (a
    window a column off, confidence 0.54) the network sees no corners, and the
    refiner moves the placement's 1.1 cells, to 0.1 of a cell from the truth.
    The network's own corners stay a candidate: on dev 3333 #151 (cells of 9
    pixels on printed paper) the refined corners lie half a cell off and their
    grid, laid on the board, does not read surer enough; the network's, laid on
    the board, lands 0.2 of a cell off and does. On dev 2222 #260 both win and
    the network's reads surer (-0.067 against -0.072; 19 points wrong against 22).
    """
    grid = found.grid
    if grid is None or found.confidence >= DISPUTED_BELOW or "learned" in found.details:
        return found
    # Each candidate: its corners, and the details its grid is reported with.
    candidates: list[tuple[npt.NDArray[np.float64], dict[str, float]]] = []
    elsewhere = "elsewhere" in found.details and "refined_elsewhere" in found.details
    own = refine_corners(image, grid.corners, grid.size)
    moves = _corner_moves(grid, own)
    doubted = float(moves.max()) > DISPUTED_CELLS
    if doubted:
        candidates.append((own, {"refined": 1.0, "own": 1.0}))
    else:
        between = _between_lines(image, found, own, moves)
        if between is not None:
            return between
    guess = find_corners(image)
    refined: npt.NDArray[np.float64] | None = None
    if guess is not None and guess.heat >= DISPUTED_HEAT:
        refined = refine_corners(image, guess.corners, grid.size)
        candidates.append((refined, {"learned": guess.heat, "refined": 1.0}))
        if guess.heat >= LEARNED_HEAT:
            candidates.append((guess.corners, {"learned": guess.heat}))
    best: tuple[Grid, float, dict[str, float]] | None = None
    for corners, whose in candidates:
        try:
            learned = grid_from_corners(corners, size=grid.size, image_shape=grid.image_shape)
        except VisionError:
            continue
        won = _learned_grid_wins(image, found, learned, elsewhere=elsewhere)
        if won is not None and (best is None or won[1] > best[1]):
            best = (*won, whose)
    if best is not None:
        laid, sure_laid, whose = best
        return _faintly(laid, sure_laid, {**whose, "disputed": 1.0})
    if doubted and refined is not None and guess is not None and guess.heat >= AGREED_HEAT:
        overruled = _overruled(image, found, refined, guess.heat)
        if overruled is not None:
            return overruled
    if float(moves.mean()) >= SHIFTED_CELLS:
        shifted = _shifted(image, grid, own)
        if shifted is not None:
            return shifted
    if not doubted:
        tiles = _on_tiles(image, grid)
        if tiles is not None:
            return BoardDetection(
                grid=None, reason=f"no board found: a grid placed, nearly empty, but {tiles}"
            )
        polished = _polished(image, found, own, moves)
        return found if polished is None else polished
    if guess is None and float(moves.min()) > DISPUTED_CELLS:
        return BoardDetection(
            grid=None,
            reason="no board found: a grid placed, but the refiner sees none of its corners "
            f"there (each moved {float(moves.min()):.1f} cells or more) and the corner "
            "network sees no board",
        )
    if found.confidence < DOUBTED_REFUSED:
        if guess is not None:
            # The placement is no board; the network's corners may still place one.
            placed = _placed_on_corners(image, grid.size, guess, first=False)
            if isinstance(placed, BoardDetection):
                return placed
        return BoardDetection(
            grid=None,
            reason="no board found: a grid placed, but its stones read no surer than a "
            f"guess (confidence {found.confidence:.2f}) and the refiner sees its corners "
            f"elsewhere (one moved {float(moves.max()):.1f} cells)",
        )
    if _lines_go_on(image, grid):
        return BoardDetection(
            grid=None,
            reason="no board found: a grid placed, but lines go on past each of its sides "
            "as a floor's tiles do, and the refiner sees its corners elsewhere",
        )
    elsewhere_board = _empty_and_elsewhere(image, found, refined, guess)
    if elsewhere_board is not None:
        return elsewhere_board
    tiles = _on_tiles(image, grid)
    if tiles is not None:
        return BoardDetection(
            grid=None,
            reason=f"no board found: a grid placed, nearly empty, but {tiles}, "
            "and the refiner sees its corners elsewhere",
        )
    cornered = _doubted_corner(image, found, own, moves)
    if cornered is not None:
        return cornered
    completed = _doubted_completed(image, found, own)
    if completed is not None:
        return completed
    confidence = min(found.confidence, DOUBTED_CONFIDENCE)
    return BoardDetection(
        grid=grid, confidence=confidence, details={**found.details, "doubted": 1.0}
    )


def _between_lines(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    own: npt.NDArray[np.float64],
    moves: npt.NDArray[np.float64],
) -> BoardDetection | None:
    """An unsure placement lying between the board's lines, laid on its own refined corners.

    On a dark or printed board the stones can read surer half a cell off their
    points than on them, and centring on them (:func:`vision.centring.centre_on_stones`)
    moves a grid the lines placed right to where its lines fall between the
    board's. Where the refiner moved the placement's corners ``POLISHED_CELLS``
    or more on average (none more than ``DISPUTED_CELLS``), very sure of each
    (``POLISHED_SPREAD``), and the grid on them shows its lines clearly where
    the placement's do not (:func:`_lined_not_placed`), that grid replaces it,
    as the refiner placed it: centred or laid on the board, it would move back.
    Its confidence is at most ``FAINT_CONFIDENCE`` (the stones and the lines
    disagree) and falls with how unsure its stones read.
    ``details["between_lines"]`` is the mean move, in cells. It comes before
    the shift (:func:`_shifted`), which takes the same corners less surely
    where they moved ``SHIFTED_CELLS`` or more on average, and refines them
    again: on 64646 #201 (a mean 0.53) both lie 0.03 of a cell off.

    Fresh 26262 #145 (round 67, misplaced at 0.90 when benched): the lines
    placed it right; centred, it lay 0.70 of a cell off, lines -1.09; its
    corners refined, 0.02 off, lines 0.98, spread 0.017 at most. Dev (round
    68: 374 placements that reach the dispute on twenty-nine seeds, 23 of the
    35 misplaced under 0.9 and a random draw of those placed right and of the
    no-board photos): five pass these gates, and a sixth with the wider
    lines rule (``LINES_CLEARER``). Besides 26262 #145, 37373 #294 lies 0.07
    of a cell off instead of 0.34, 64646 #262 0.21 instead of 0.16 (0 points
    wrong both ways), and 80808 #182, 64646 #201 and 48484 #3 were already
    laid on the same corners by a later step. Older dev 333 #241 is taken
    here before its polish, on the same corners at the same confidence.
    """
    grid = found.grid
    assert grid is not None
    mean = float(moves.mean())
    if mean < POLISHED_CELLS:
        return None
    lined = _grid_on_sure_corners(image, grid, own, POLISHED_SPREAD)
    if lined is None or not _lined_not_placed(image, grid, lined):
        return None
    return _faintly(lined, certainty(image, lined), {"refined": 1.0, "between_lines": mean})


def _empty_and_elsewhere(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    refined: npt.NDArray[np.float64] | None,
    guess: CornerGuess | None,
) -> BoardDetection | None:
    """A doubted placement that reads empty, replaced by the board the network sees elsewhere.

    A floor's tiles or a table's grain can place a grid that reads as an empty
    board near certain, surer than a real board nearly full of stones, blurred
    and seen small, reads on its true grid; no grid that must read surer can
    win against it (:func:`_learned_grid_wins`), unless its lines show where
    the placement's do not (:func:`_lined_not_placed`, which since round 67
    takes 90210 #230, below, before this step). Where the placement reads
    nearly empty (``NEARLY_EMPTY``), the network is sure of four corners
    (``AGREED_HEAT``) more than ``ELSEWHERE_CELLS`` away and the refiner is sure
    of each where it places them (``SHIFTED_SPREAD``), their grid, centred on
    its stones and laid on the board or, failing, as placed, replaces it where
    it passes the last resorts' floors (:func:`_checked_reading`), at
    ``FAINT_CONFIDENCE`` at most: two looks see a board elsewhere, and the
    placement has no stone to show. On a board with no stones, centring can
    move the grid half a cell, between the lines, where its empty points read
    surer and its lines do not show.
    Dev photos (hard synthetic, ten seeds, round 63): of the 191 placed under
    0.5, one reaches this, 90210 #230: a 9×9 nearly full of stones, blurred,
    with cells of 14 pixels, beside which the lines laid a 9×9 on the floor's
    tiles (-0.020, three points read as stones) at 0.3, doubted; the refined
    network's grid, laid on the board, reads -0.028 and lies 0.26 of a cell
    off. Round 66 (the 436 photos placed under 0.5 on twelve seeds): seven
    reach this, and only 90210 #230 and fresh 13131 #17 pass its gates. 13131
    #17 is an empty kaya 19×19 the lines placed 4.8 cells off (doubted, 0.3):
    centred, its grid lies 0.71 of a cell off with lines reading -0.74 against
    half a cell off; as placed, 0.03 off, with lines reading 0.72.
    """
    grid = found.grid
    assert grid is not None
    if refined is None or guess is None or guess.heat < AGREED_HEAT:
        return None
    if _stone_share(image, grid) >= NEARLY_EMPTY:
        return None
    if _largest_spread(image, refined, grid.size) > SHIFTED_SPREAD:
        return None
    try:
        learned = grid_from_corners(refined, size=grid.size, image_shape=grid.image_shape)
    except VisionError:
        return None
    apart = _cells_apart(grid, learned)
    if apart <= ELSEWHERE_CELLS:
        return None
    details = {"learned": guess.heat, "refined": 1.0, "disputed": 1.0, "elsewhere": apart}
    elsewhere = BoardDetection(grid=learned, confidence=FAINT_CONFIDENCE, details=details)
    checked = _checked_reading(image, elsewhere, laid=True)
    if checked.grid is None or _cells_apart(checked.grid, grid) <= DISPUTED_CELLS:
        return None
    return checked


def _doubted_corner(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    own: npt.NDArray[np.float64],
    moves: npt.NDArray[np.float64],
) -> BoardDetection | None:
    """A doubted placement laid on its refined corners, where the refiner is very sure of them.

    As the corner polish does for a placement it moved less
    (:func:`_corner_polished`): the corners it moved ``POLISHED_CORNER_CELLS``
    or more at a spread of ``POLISHED_SPREAD`` at most, the others at
    ``SHIFTED_SPREAD``; but, one having moved more than a cell, only where the
    stones read at least as sure there. ``details["polished_corner"]`` is the
    farthest move, in cells; the confidence stays at ``DOUBTED_CONFIDENCE`` at
    most. Dev photos (round 64; ten seeds' 307 placements under 0.5 or taken
    at 0.5): four doubted ones reach it. Fresh 52525 #82 (three corners right,
    the fourth 1.7 cells off; spread 0.017 at most, its stones reading 0.001
    surer) is laid 0.06 of a cell off; 70707 #45, placed right, reads less
    sure so and stays (the refiner as sure, 0.027: the stones' guard is what
    keeps it); 31337 #46 and 42424 #73 spread 0.23 and 0.16.
    Doubted dev boards of earlier rounds (2222 #96, 1357 #172, 3333 #115)
    stay as they were here (1357 #172 is completed since round 67,
    :func:`_doubted_completed`).
    """
    doubted = BoardDetection(
        grid=found.grid,
        confidence=min(found.confidence, DOUBTED_CONFIDENCE),
        details=found.details,
    )
    return _corner_polished(image, doubted, own, moves, doubted=True)


def _doubted_completed(
    image: npt.NDArray[np.uint8], found: BoardDetection, own: npt.NDArray[np.float64]
) -> BoardDetection | None:
    """A doubted placement replaced by its refined corners, the unsure one sought on the lines.

    Where the refiner moved a corner of the placement more than a cell and is
    sure of three where it put them (``SHIFTED_SPREAD``) and unsure of the
    fourth, that one often lies under stones or glare: the refined grid then
    reads less sure than the placement, and does not win the dispute. That
    corner is moved to where the grid's lines lie best on the board's
    (:func:`vision.grid.corner_on_lines`, as :func:`_completed` does for the
    network's corners), and the grid, its lines refined or, failing that, as
    moved, replaces the placement where its stones read at least
    ``COMPLETED_SURER`` surer, at ``DOUBTED_CONFIDENCE`` at most;
    ``details["completed"]`` says how far that corner moved, in cells. Where
    neither reads so, each is then laid on the board (:func:`_sought_on_lines`
    with ``laid``), as the dispute lays its candidates: fresh 20202 #278, a
    pale 19×19 of 10-pixel cells its lines placed 1.6 cells off, reads -0.0425
    there; the completed grid lies 0.38 of a cell off but reads -0.0757, and
    laid on the board -0.0383, 0.39 off.
    """
    grid = found.grid
    assert grid is not None
    spreads = corner_spread(image, own, grid.size)
    if not np.all(np.isfinite(spreads)):
        return None
    corner = int(np.argmax(spreads))
    if spreads[corner] <= SHIFTED_SPREAD or np.delete(spreads, corner).max() > SHIFTED_SPREAD:
        return None
    try:
        refined = grid_from_corners(own, size=grid.size, image_shape=grid.image_shape)
    except VisionError:
        return None
    sure = found.details["certainty"] if "certainty" in found.details else certainty(image, grid)
    sought = _sought_on_lines(image, refined, corner, sure + COMPLETED_SURER, laid=True)
    if sought is None:
        return None
    completed, sure_completed = sought
    details = {
        **found.details,
        "refined": 1.0,
        "completed": _corner_moved(refined, completed, corner),
        "certainty": sure_completed,
    }
    confidence = min(found.confidence, DOUBTED_CONFIDENCE)
    return BoardDetection(grid=completed, confidence=confidence, details=details)


def _sought_on_lines(
    image: npt.NDArray[np.uint8], grid: Grid, corner: int, floor: float, *, laid: bool = False
) -> tuple[Grid, float] | None:
    """``grid`` with its corner ``corner`` sought on the lines, and its stones' certainty.

    Of the grid so moved with its lines refined and as moved
    (:func:`vision.grid.corner_on_lines`), the first whose stones read at
    least ``floor``: the refined lines first, as in :func:`_completed`. With
    ``laid``, where neither does, each is then centred on its stones and laid
    on the board (:func:`_laid_on_board`, as the dispute lays its candidates)
    and taken where it then reads so and leaves none of the other three
    corners more than ``KEPT_CELLS`` from where ``grid`` put them. None where
    none does, or the lines give the corner no place.
    """
    on_lines = corner_on_lines(image, grid, corner)
    if on_lines is None:
        return None
    completions = [completed for completed in on_lines[::-1] if completed is not None]
    for completed in completions:
        sure = certainty(image, completed)
        if sure >= floor:
            return completed, sure
    if not laid:
        return None
    others = [k for k in range(4) if k != corner]
    for completed in completions:
        centred, _ = centre_on_stones(image, completed)
        moved, sure = _laid_on_board(image, centred, certainty(image, centred), {})
        kept = max(_corner_moved(grid, moved, k) for k in others) <= KEPT_CELLS
        if kept and sure >= floor:
            return moved, sure
    return None


def _lines_go_on(image: npt.NDArray[np.uint8], grid: Grid) -> bool:
    """Whether lines as dark as a grid's outer ones go on past each side the photo shows.

    At least ``LINES_GO_ON_SIDES`` sides shown, and on each the lattice lines one
    and two cells beyond read at least ``LINES_GO_ON`` of its outer line
    (:func:`vision.grid.lines_beyond`): a floor's tiles, not a board.
    """
    beyond = lines_beyond(image, grid, reach=2)
    shown = np.isfinite(beyond).all(axis=1)
    return bool(
        np.count_nonzero(shown) >= LINES_GO_ON_SIDES and (beyond[shown] >= LINES_GO_ON).all()
    )


def _on_tiles(image: npt.NDArray[np.uint8], grid: Grid) -> str | None:
    """How a nearly empty grid's lines read as a floor's tiles do, or ``None`` where not.

    Under ``ALTERNATE_STONES`` of its points read as stones, and either on
    both axes the lines of one parity read under ``ALTERNATE_LINES`` as dark
    as the other's (:func:`vision.grid.lines_alternate`: tiles placed at half
    their spacing), or on both axes ``LONE_LINES`` or more of its dark lines
    have bare lines either side (:func:`vision.grid.lone_lines`: tiles placed
    at a fraction of their spacing). A board's lines are all drawn alike.
    """
    if np.all(lines_alternate(image, grid) < ALTERNATE_LINES):  # NaN (unread) fails
        way = (
            "every other line of it lies across bare floor, as a grid laid on tiles at "
            "half their spacing does"
        )
    elif np.all(lone_lines(image, grid) >= LONE_LINES):
        way = (
            "its dark lines stand apart, bare lines between them, as a grid laid on tiles "
            "at a fraction of their spacing does"
        )
    else:
        return None
    return way if _stone_share(image, grid) < ALTERNATE_STONES else None


def _polished(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    own: npt.NDArray[np.float64],
    moves: npt.NDArray[np.float64],
) -> BoardDetection | None:
    """An unsure placement laid on its own corners as the refiner moved them, if very sure.

    Four ways, each the same board placed closer, at the placement's confidence
    (the board is no surer for it). For a placement read under
    ``POLISHED_BELOW``, where the refiner moved its corners ``POLISHED_CELLS``
    or more on average (less than a shift, none more than ``DISPUTED_CELLS``)
    and its spread is at most ``POLISHED_SPREAD`` at each:
    ``details["polished"]`` is the mean move, in cells. Otherwise, where it
    moved one corner ``POLISHED_CORNER_CELLS`` or more, very sure of where it
    put each corner it moved so and sure of the others (``SHIFTED_SPREAD``),
    and the stones read at most ``POLISHED_CORNER_UNSURER`` less sure on the
    grid there, or at most ``POLISHED_CORNER_TIMES`` times as unsure: a
    placement that got a corner wrong, which the mean move and the stones
    alone hardly tell. ``details["polished_corner"]`` is the farthest move, in
    cells. Failing both, where the refiner is less sure but the stones read
    clearly surer there (:func:`_surer_polished`); failing that, where it is
    very sure of three corners and unsure of the fourth, that one sought on
    the lines (:func:`_completed_polished`).
    """
    grid = found.grid
    if grid is None:
        return None
    if found.confidence < POLISHED_BELOW and float(moves.mean()) >= POLISHED_CELLS:
        polished = _grid_on_sure_corners(image, grid, own, POLISHED_SPREAD)
        if polished is not None:
            details = {**found.details, "polished": float(moves.mean())}
            details["certainty"] = certainty(image, polished)
            return BoardDetection(grid=polished, confidence=found.confidence, details=details)
    cornered = _corner_polished(image, found, own, moves)
    if cornered is not None:
        return cornered
    surer = _surer_polished(image, found, own, moves)
    return surer if surer is not None else _completed_polished(image, found, own, moves)


def _corner_polished(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    own: npt.NDArray[np.float64],
    moves: npt.NDArray[np.float64],
    *,
    doubted: bool = False,
) -> BoardDetection | None:
    """The second way of :func:`_polished`: one corner the placement got wrong.

    The stones may read ``POLISHED_CORNER_UNSURER`` less sure on ``own``, or
    ``POLISHED_CORNER_TIMES`` times as unsure; a ``doubted`` placement
    (:func:`_doubted_corner`) asks them to read at least as sure.
    """
    grid = found.grid
    moved = moves >= POLISHED_CORNER_CELLS
    if grid is None or not moved.any():
        return None
    spread = corner_spread(image, own, grid.size)
    if not (spread[moved].max() <= POLISHED_SPREAD and spread.max() <= SHIFTED_SPREAD):
        return None
    if doubted:
        return _laid_on_own(image, found, own, 0.0, "polished_corner", moves)
    return _laid_on_own(
        image,
        found,
        own,
        -POLISHED_CORNER_UNSURER,
        "polished_corner",
        moves,
        times=POLISHED_CORNER_TIMES,
    )


def _surer_polished(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    own: npt.NDArray[np.float64],
    moves: npt.NDArray[np.float64],
) -> BoardDetection | None:
    """The third way of :func:`_polished`: where the stones read surer on the refiner's corners.

    The two ways before ask the refiner to be very sure of where it moved a
    corner; on a board nearly full of stones, where little of a line is left
    near its corners, it is less sure (spread up to ``POLISHED_SURE_SPREAD``)
    even where it is right, and the stones, which then lie on their points,
    read surer by ``POLISHED_SURER`` or more. ``details["polished_surer"]`` is
    the farthest move, in cells.
    """
    grid = found.grid
    if grid is None or float(moves.max()) < POLISHED_CELLS:
        return None
    if corner_spread(image, own, grid.size).max() > POLISHED_SURE_SPREAD:
        return None
    return _laid_on_own(image, found, own, POLISHED_SURER, "polished_surer", moves)


def _completed_polished(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    own: npt.NDArray[np.float64],
    moves: npt.NDArray[np.float64],
) -> BoardDetection | None:
    """The fourth way of :func:`_polished`: three corners sure, the fourth sought on the lines.

    For a placement read under ``POLISHED_BELOW`` one of whose corners the
    refiner moved ``POLISHED_CORNER_CELLS`` or more, unsure where it put it
    (spread over ``SHIFTED_SPREAD``) and very sure of the other three
    (``POLISHED_SPREAD``): neither the placement nor the refiner has that
    corner, which lies under glare or stones. It is sought on the lines
    (:func:`vision.grid.corner_on_lines`, as :func:`_doubted_completed` does
    for a doubted placement), the other three where the refiner put them (its
    lines refined may move them a little), and the grid, its lines refined
    or, failing that, as moved, is laid where its
    stones read as :func:`_corner_polished` asks (``POLISHED_CORNER_UNSURER``
    less sure, or ``POLISHED_CORNER_TIMES`` times as unsure): on a far board
    they read surer on a grid with a corner most of a cell off than on the
    true one. ``details["polished_completed"]`` is how far that corner moved
    from the placement's, in cells. Dev photos (round 66: the 436 placed under
    0.5 on twelve seeds): three read otherwise, each closer to the truth. Fresh
    58585 #190, a far printed 19×19 over-exposed on a white table, placed at 0
    with a corner 0.67 of a cell off (the refiner puts it half a cell off at a
    spread of 0.22, and is sure of the others at 0.04 at most), now lies 0.18
    off, its stones reading 1.07 times as unsure; 90210 #290 0.34 to 0.01 off;
    19191 #235 0.16 to 0.16. Of the six where the refiner is sure of three
    corners alone and moved the fourth 0.3 of a cell or more, the one this
    would place farther (19191 #9, misplaced already) is sure of its three at
    0.11 only.
    """
    grid = found.grid
    if grid is None or found.confidence >= POLISHED_BELOW:
        return None
    spreads = corner_spread(image, own, grid.size)
    if not np.all(np.isfinite(spreads)):
        return None
    corner = int(np.argmax(spreads))
    if moves[corner] < POLISHED_CORNER_CELLS or spreads[corner] <= SHIFTED_SPREAD:
        return None
    if np.delete(spreads, corner).max() > POLISHED_SPREAD:
        return None
    try:
        refined = grid_from_corners(own, size=grid.size, image_shape=grid.image_shape)
    except VisionError:
        return None
    sure = found.details["certainty"] if "certainty" in found.details else certainty(image, grid)
    floor = min(sure - POLISHED_CORNER_UNSURER, POLISHED_CORNER_TIMES * sure)
    sought = _sought_on_lines(image, refined, corner, floor)
    if sought is None:
        return None
    completed, sure_completed = sought
    details = {
        **found.details,
        "polished_completed": _corner_moved(grid, completed, corner),
        "certainty": sure_completed,
    }
    return BoardDetection(grid=completed, confidence=found.confidence, details=details)


def _laid_on_own(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    own: npt.NDArray[np.float64],
    surer: float,
    key: str,
    moves: npt.NDArray[np.float64],
    *,
    times: float | None = None,
) -> BoardDetection | None:
    """``found`` laid on its refined corners ``own`` where its stones read ``surer`` there.

    At the placement's confidence (the board is no surer for being placed
    closer); ``surer`` may be negative (a little less sure will do), and
    ``details[key]`` is the farthest corner's move, in cells. With ``times``,
    stones reading at most that many times as unsure will do too (a
    certainty is 0 at best), where that allows more.
    """
    grid = found.grid
    assert grid is not None
    try:
        polished = grid_from_corners(own, size=grid.size, image_shape=grid.image_shape)
    except VisionError:
        return None
    sure = found.details["certainty"] if "certainty" in found.details else certainty(image, grid)
    sure_polished = certainty(image, polished)
    floor = sure + surer if times is None else min(sure + surer, times * sure)
    if sure_polished < floor:
        return None
    details = {**found.details, key: float(moves.max()), "certainty": sure_polished}
    return BoardDetection(grid=polished, confidence=found.confidence, details=details)


def _overruled(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    refined: npt.NDArray[np.float64],
    heat: float,
) -> BoardDetection | None:
    """A placement the refiner doubts, given way to the network's corners, as refined.

    Called where the refiner moved one of the placement's own corners more
    than ``DISPUTED_CELLS`` and the network sees the board's corners at
    ``AGREED_HEAT`` or more: where the placement's stones read under the floors
    (``MIN_CERTAINTY``), the refined corners' grid takes it if it reads surer
    by ``DISPUTED_SURER``, however little its stones stand out from half a
    cell off (a pale board with few stones), since two looks at the corners
    say the placement is elsewhere. Its confidence is at most
    ``GUESSED_CONFIDENCE``: the floors were not passed; ``details["overruled"]``.
    Dev photos (hard synthetic, ten seeds): of the 1,566 placements under
    ``DISPUTED_BELOW``, 5 are doubted and no grid won the dispute; the 2 under
    the floors are misplaced. Fresh 6161 #145, a pale board with 11 stones
    placed 15 cells off by lines on the table (stones -0.065): the network sees
    its corners at 0.57, refined within 0.31 of a cell, and their grid reads
    -0.024, standing out by 0.006 only. 3333 #121: the network is unsure (0.36).
    The network's own corners, unrefined, are no candidate: on 6161 #145 their
    grid reads surer still (-0.020) with two corners 0.7 of a cell off.
    """
    grid = found.grid
    if grid is None:
        return None
    try:
        learned = grid_from_corners(refined, size=grid.size, image_shape=grid.image_shape)
    except VisionError:
        return None
    won = _learned_grid_wins(image, found, learned, doubted=True)
    if won is None:
        return None
    laid, sure_laid = won
    confidence = min(GUESSED_CONFIDENCE, _reading_confidence(sure_laid))
    details = {
        "learned": heat,
        "refined": 1.0,
        "disputed": 1.0,
        "overruled": 1.0,
        "certainty": sure_laid,
    }
    return BoardDetection(grid=laid, confidence=confidence, details=details)


def _learned_grid_wins(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    learned: Grid,
    *,
    doubted: bool = False,
    elsewhere: bool = False,
) -> tuple[Grid, float] | None:
    """The learned corners' grid, laid on the board, and its certainty, if it beats ``found``.

    It must lie more than ``DISPUTED_CELLS`` from the placement's grid, before
    and after it is centred on its stones and laid on the board; read surer by
    ``STONES_SURER``; and pass the last resorts' floors (:func:`_reads_as_board`).
    Where the placement itself is under the floors, its stones less sure than
    ``MIN_CERTAINTY``, a grid reading surer by ``DISPUTED_SURER`` whose stones
    stand out (``MIN_CONTRAST``) will do; with ``doubted`` (:func:`_overruled`),
    however little they stand out. With ``elsewhere`` (the network and the
    refiner both see the board more than ``ELSEWHERE_CELLS`` and
    ``SHIFTED_CELLS`` away, :func:`_sure_unless_elsewhere`), reading as sure
    will do: a sparse board reads near certain a cell off, or at half its
    spacing (fresh 8282 #101, 27 stones on its first line: -0.0041 at half
    the spacing across, -0.0016 on the refined network's corners).
    However its stones read, it wins where its lines show clearly and the
    placement's do not (:func:`_lined_not_placed`).
    """
    grid = found.grid
    if grid is None or _cells_apart(learned, grid) <= DISPUTED_CELLS:
        return None
    centred, _ = centre_on_stones(image, learned)
    laid, sure_laid = _laid_on_board(image, centred, certainty(image, centred), {})
    if _cells_apart(laid, grid) <= DISPUTED_CELLS:
        return None
    sure = found.details["certainty"] if "certainty" in found.details else certainty(image, grid)
    if sure_laid < sure + (0.0 if elsewhere else STONES_SURER):
        return (laid, sure_laid) if _lined_not_placed(image, grid, laid) else None
    # A placement under the floors itself gives way to a grid far surer whose
    # stones stand out, though not as sure as the floors ask.
    below_floors = sure < MIN_CERTAINTY and sure_laid >= sure + DISPUTED_SURER
    if not _reads_as_board(image, laid, sure_laid) and not (
        below_floors and (doubted or half_cell_contrast(image, laid) >= MIN_CONTRAST)
    ):
        return None
    return laid, sure_laid


def _lined_not_placed(image: npt.NDArray[np.uint8], grid: Grid, laid: Grid) -> bool:
    """Whether ``laid``'s lines show clearly (``WELL_LINED``) where ``grid``'s do not.

    ``grid``'s less than clearly and less than a ``LINES_CLEARER``-th as
    clearly as ``laid``'s (so always where they do not show at all,
    ``DISPUTED_UNLINED``, or fall between the board's): the board's lines lie
    where ``laid`` puts them, not where the placement does, however the
    stones read. A NaN reading either way is no evidence.
    """
    lined = weaker_lines(image, laid)
    if not lined >= WELL_LINED:
        return False
    placed = weaker_lines(image, grid)
    return placed < WELL_LINED and lined >= LINES_CLEARER * placed


def _faintly(grid: Grid, sure: float, details: dict[str, float]) -> BoardDetection:
    """``grid`` as a board two looks disagreed on, its stones reading ``sure``.

    At ``FAINT_CONFIDENCE`` at most, falling with how unsure its stones read
    (``UNSURE_READING``); ``details["certainty"]`` is ``sure``.
    """
    confidence = min(FAINT_CONFIDENCE, _reading_confidence(sure))
    return BoardDetection(grid=grid, confidence=confidence, details={**details, "certainty": sure})


def _cells_apart(grid: Grid, other: Grid) -> float:
    """How far ``other``'s farthest corner lies from ``grid``'s, in ``grid``'s cells.

    The corners are compared in each of the four turns: two grids on one board
    seen near 45 degrees may call different corners board[0][0].
    """
    others = other.corners
    return min(float(_corner_moves(grid, np.roll(others, turn, axis=0)).max()) for turn in range(4))


def _reading_confidence(sure: float) -> float:
    """The most confidence a grid whose stones read ``sure`` can have.

    ``1 + sure / UNSURE_READING``, between 0 and 1: a grid lines off reads its
    stones unsure; certain stones leave it 1.
    """
    return float(np.clip(1.0 + sure / UNSURE_READING, 0.0, 1.0))


def _corner_moves(grid: Grid, corners: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """How far each of four ``corners`` lies from ``grid``'s own, in its cells: shape (4,)."""
    own = grid.corners
    cell = float(np.mean(np.linalg.norm(np.roll(own, -1, axis=0) - own, axis=1)))
    moves = np.linalg.norm(corners - own, axis=1) / max(cell / (grid.size - 1), 1e-9)
    return np.asarray(moves, dtype=np.float64)


def _largest_spread(
    image: npt.NDArray[np.uint8], corners: npt.NDArray[np.float64], size: int
) -> float:
    """The widest of the refiner's spreads on four ``corners``, in cells.

    From :func:`vision.corners.corner_spread`. The refiner is sure of all four
    where this is at most ``SHIFTED_SPREAD``; a NaN spread is never that.
    """
    return float(np.max(corner_spread(image, corners, size)))


def _grid_on_sure_corners(
    image: npt.NDArray[np.uint8], grid: Grid, own: npt.NDArray[np.float64], spread: float
) -> Grid | None:
    """The grid on the corners ``own``, where the refiner spreads at most ``spread`` at each."""
    if not _largest_spread(image, own, grid.size) <= spread:
        return None
    try:
        return grid_from_corners(own, size=grid.size, image_shape=grid.image_shape)
    except VisionError:
        return None


def _shifted(
    image: npt.NDArray[np.uint8], grid: Grid, own: npt.NDArray[np.float64]
) -> BoardDetection | None:
    """The grid on an unsure placement's own corners as the refiner moved them, if it is sure.

    Called where the refiner moved them ``SHIFTED_CELLS`` or more on average:
    the grid as a whole, not one corner it misread. Where it is sure of all four
    where it put them (:func:`vision.corners.corner_spread` at most
    ``SHIFT_SPREAD``), their grid replaces the placement, however its stones
    read: a grid part of a cell off reads them about as sure as the true one.
    Its confidence is at most ``FAINT_CONFIDENCE`` and falls with how unsure
    its stones read (``UNSURE_READING``). The refiner may stop part of the way
    from a placement cells off: the grid is refined once more from its own
    corners, and taken so where the refiner is as sure of them and its stones
    read at least as sure (``details["again"]``).
    """
    moved = _grid_on_sure_corners(image, grid, own, SHIFT_SPREAD)
    if moved is None:
        return None
    sure = certainty(image, moved)
    details = {"refined": 1.0, "shifted": 1.0}
    again = _refined_again(image, moved, sure)
    if again is not None:
        (moved, sure), details["again"] = again, 1.0
    return _faintly(moved, sure, details)


def _refined_again(
    image: npt.NDArray[np.uint8], moved: Grid, sure: float
) -> tuple[Grid, float] | None:
    """``moved`` refined once more from its own corners, and its certainty, if no less sure.

    The refiner sure of each corner again (``SHIFT_SPREAD``), and the stones
    reading at least as sure as ``sure`` (:func:`_shifted`). The refiner was
    trained on corners the network puts near the board's; from a placement
    cells off it can stop part of the way. Dev photos (round 64; eight seeds'
    257 placements under 0.5 or taken at 0.5: dev 27182, 31337, 13579, 42424,
    70707 and 90210, fresh 60606 and 19191 looked at after their bench): 16
    are shifted; 10 are refined again, each within 0.3 of a cell of the truth
    before and after (0.05 of a cell farther at most, 31337 #238), but for
    fresh 19191 #151, a 9×9 with wide margins placed 3.6 cells off and
    shifted to 0.69 of a cell off at 0.5: now 0.03 off. Of the six left as
    shifted, 90210 #71 would go from 0.52 to 0.85 of a cell off, its stones
    reading less sure there.
    """
    own = refine_corners(image, moved.corners, moved.size)
    again = _grid_on_sure_corners(image, moved, own, SHIFT_SPREAD)
    if again is None:
        return None
    sure_again = certainty(image, again)
    return (again, sure_again) if sure_again >= sure else None


def _doubled_surer(
    image: npt.NDArray[np.uint8], grid: Grid, sure: float
) -> tuple[Grid, float] | None:
    """The grid at twice its spacing along an axis, centred on its stones, if it reads surer.

    Of :func:`vision.grid.doubled_spacings`, centred on their stones, the surest,
    where it reads surer than ``grid`` (``sure``) by ``DOUBLED_SURER`` and its
    lines show (``DOUBLED_LINED``), at least half as plainly as the placement's
    (``DOUBLED_KEPT``).
    """
    best: tuple[Grid, float] | None = None
    for doubled in doubled_spacings(grid):
        centred, _ = centre_on_stones(image, doubled)
        sure_doubled = certainty(image, centred)
        if best is None or sure_doubled > best[1]:
            best = (centred, sure_doubled)
    if best is None or best[1] < sure + DOUBLED_SURER:
        return None
    lines = weaker_lines(image, best[0])
    if lines < DOUBLED_LINED or lines < DOUBLED_KEPT * weaker_lines(image, grid):
        return None
    return best


def _other_searches(
    image: npt.NDArray[np.uint8],
    size: int,
    rng: np.random.Generator | None,
    lines: BoardDetection,
) -> BoardDetection:
    """Where the lines placed no board (``lines`` says why), the other ways to find one.

    The board's outline, the lattice of loose stones, that of the stones' cores,
    faint lines on an equalised copy, blurred lines, the outline's surest grids
    stretched onto the lines, the line response's combs however few crossings
    they find (:func:`vision.grid.find_combed_grid`), lines smeared wider
    still (``SMEARED_WIDTH``), and last the outline of a nearly full board's
    stones (:func:`_found_in_stones_outline`); the first that finds a board.
    Failing all, the reason names each search and what it found wanting.

    They also run where the lines' grid was bare (``BARE_CONTRAST``): on the dev
    photos, that reads two boards right that were refused (2468 #58 by its faint
    lines, #162 by its blurred ones), and takes no photo without a board.
    """
    grids = outline_grids(image, size=size)
    outlined = find_by_outline(image, size=size, grids=grids)
    if outlined:
        return _outline_or_stones(image, outlined)
    stoned = _found_by_stones_alone(image, size)
    if stoned:
        return stoned
    cored = _found_by_stones_alone(image, size, touching=True)
    if cored:
        return cored
    faint = _found_by_faint_lines(image, size, rng)
    if faint:
        return faint
    blurred = _checked_reading(image, find_blurred_grid(image, size=size, rng=rng), laid=True)
    if blurred:
        return blurred
    stretched = find_by_stretched_outline(image, size=size, grids=grids)
    if stretched:
        return _stretched_outline_settled(image, stretched)
    # Last, the combs however few crossings they find: before the stretched
    # outline, they misplaced a board it reads whole (dev 2468 #147, a floor's
    # tiles over the board's lines).
    combed = _checked_reading(image, find_combed_grid(image, size=size, rng=rng), laid=True)
    if combed:
        return combed
    smeared = _checked_reading(
        image, find_blurred_grid(image, size=size, rng=rng, line_width=SMEARED_WIDTH), laid=True
    )
    if smeared:
        return smeared
    full = _found_in_stones_outline(image, size)
    if full:
        return full
    # Each search's reason, named by the search: two of them share texts.
    searches = {
        "lines": lines,
        "outline": outlined,
        "loose stones": stoned,
        "stones' cores": cored,
        "faint lines": faint,
        "blurred lines": blurred,
        "stretched outline": stretched,
        "combed lines": combed,
        "smeared lines": smeared,
        "stones' outline": full,
    }
    reasons = [
        f"{name}: {d.reason.removeprefix('no board found: ')}" for name, d in searches.items()
    ]
    return BoardDetection(grid=None, reason="no board found: " + "; ".join(reasons))


def _laid_on_board(
    image: npt.NDArray[np.uint8], grid: Grid, sure: float, details: dict[str, float]
) -> tuple[Grid, float]:
    """An unsure grid moved onto the board's lines and stones, and how sure it then reads.

    Snapped onto the lines near it while its stones read surer (``SNAP_SURER``),
    its sides stretched onto the board's lines (``STRETCH_SURER``), and its
    window moved toward stones left outside it, to where the board's lines
    end and toward crossings beyond its sides. Each move taken is noted in ``details``.
    """
    if sure < SNAP_UNSURE:
        snapped = _snapped_surer(image, grid, sure)
        if snapped is not None:
            grid, sure, steps = snapped
            details["snapped"] = float(steps)
    # A grid reading near certain is not stretched here: the median photo is
    # such a grid, and a stretch costs tens of ms (40-132 ms on unsure dev
    # placements). Stretching them too changed no reading on the dev seeds 2468
    # and 1357 nor on the held-out seeds.
    near_certain = sure + STRETCH_SURER >= CERTAIN
    stretched = None if near_certain else _stretched_onto_lines(image, grid, sure)
    if stretched is not None:
        grid, sure, rounds = stretched
        details["stretched"] = float(rounds)
    respaced = None if near_certain else _respaced_onto_lines(image, grid, sure)
    if respaced is not None:
        grid, sure, _ = respaced
        details["respaced"] = 1.0
    moved = _window_moved(image, grid, details)
    return (grid, sure) if moved is grid else (moved, certainty(image, moved))


def _window_moved(image: npt.NDArray[np.uint8], grid: Grid, details: dict[str, float]) -> Grid:
    """The grid's window moved whole lines onto the board, each move noted in ``details``.

    Toward lines of stones left outside it (:func:`vision.centring.take_in_stones`),
    to where the board's lines end (:func:`vision.centring.take_in_line_ends`),
    and toward crossings beyond its sides (:func:`vision.grid.settle_on_crossings`).
    Returns ``grid`` itself where none calls for a move.
    """
    taken, (columns, rows) = take_in_stones(image, grid)
    if columns or rows:
        grid = taken
        details.update(moved_columns=float(columns), moved_rows=float(rows))
    ended, (columns, rows) = take_in_line_ends(image, grid)
    if columns or rows:
        grid = ended
        details.update(ends_columns=float(columns), ends_rows=float(rows))
    settled, (columns, rows) = settle_on_crossings(image, grid)
    if columns or rows:
        grid = settled
        details.update(crossings_columns=float(columns), crossings_rows=float(rows))
    return grid


def _stretched_onto_lines(
    image: npt.NDArray[np.uint8], grid: Grid, sure: float
) -> tuple[Grid, float, int] | None:
    """The grid stretched onto the board's lines while that reads better, and the stretches.

    A stretch (:func:`vision.grid.stretch_to_lines`) is kept where the stones
    read surer by ``STRETCH_SURER``, or as sure (within ``STRETCH_KEPT``) with
    lines that show clearer by ``STRETCH_CLEARER``
    (:func:`vision.outline.line_contrast`): on an empty or sparse board a side a
    line off reads its few stones as surely. At most ``STRETCH_ROUNDS``.
    """
    return _moved_while_better(
        image,
        grid,
        sure,
        stretch_to_lines,
        times=STRETCH_ROUNDS,
        surer=STRETCH_SURER,
        or_clearer=True,
    )


def _respaced_onto_lines(
    image: npt.NDArray[np.uint8], grid: Grid, sure: float
) -> tuple[Grid, float, int] | None:
    """The grid respaced along an axis onto the board's lines, if its stones read surer so.

    A stretch moving both sides of an axis at once (``respace`` in
    :func:`vision.grid.stretch_to_lines`): a lattice of the wrong spacing, right
    at its middle, is lines off at both sides, and moving one side at a time
    lands it on a beat. Kept where the stones read surer by ``STRETCH_SURER``.
    """
    return _moved_while_better(
        image, grid, sure, partial(stretch_to_lines, respace=True), times=1, surer=STRETCH_SURER
    )


def _moved_while_better(
    image: npt.NDArray[np.uint8],
    grid: Grid,
    sure: float,
    move: Callable[[npt.NDArray[np.uint8], Grid], Grid | None],
    *,
    times: int,
    surer: float,
    or_clearer: bool = False,
) -> tuple[Grid, float, int] | None:
    """The grid moved by ``move`` again and again while each move reads better.

    Better: its stones read surer by ``surer``; with ``or_clearer``, also as
    sure within ``STRETCH_KEPT`` with lines clearer by ``STRETCH_CLEARER`` and
    plainly seen (``MIN_LINE_CONTRAST``). At most ``times`` moves. Returns the
    grid, its certainty and the moves kept; None where none was.
    """
    kept = 0
    lines: float | None = None
    for _ in range(times):
        moved = move(image, grid)
        if moved is None:
            break
        moved_sure = certainty(image, moved)
        if moved_sure < sure + surer:
            if not or_clearer or moved_sure < sure - STRETCH_KEPT:
                break
            if lines is None:
                lines = line_contrast(image, grid)
            moved_lines = line_contrast(image, moved)
            if moved_lines < max(lines + STRETCH_CLEARER, MIN_LINE_CONTRAST):
                break
            lines = moved_lines
        else:
            lines = None
        grid, sure, kept = moved, moved_sure, kept + 1
    return (grid, sure, kept) if kept else None


def _outline_or_stones(image: npt.NDArray[np.uint8], outlined: BoardDetection) -> BoardDetection:
    """The grid an outline placed, or the stones' lattice where it reads clearly surer.

    Where the lines placed no grid, an outline's grid that reads unsure is
    weighed against the stones' own lattice as an unsure line grid is
    (``STONES_SURER``): a thick board's side face or a bowl's rim can widen the
    outline by a cell on one side. The outline's grid kept is stretched onto
    the board's lines where that reads better (:func:`_stretched_onto_lines`):
    the outline's corners, cut by blur or a bowl, can leave one side a line off.

    Its confidence is at most what its stones' reading allows
    (:func:`_reading_confidence`), as every other placement's: the outline's own
    (its stones standing out from half a cell off) is as high on a grid a line
    off as on the board. Fresh 8484 #222, a crowded printed board its outline
    placed a row off, stones reading -0.035, was reported at 1.0; at 0.30 it is
    disputed, and the refiner's corners place it (2 points wrong).
    """
    placed = outlined.grid
    if placed is None:
        return outlined
    sure = float(outlined.details["certainty"])
    confidence = min(outlined.confidence, _reading_confidence(sure))
    outlined = BoardDetection(grid=placed, confidence=confidence, details=outlined.details)
    if sure + STONES_SURER > 0.0:
        return _stretched_detection(image, outlined)
    by_stones = _stones_reading_better(image, placed, sure)
    if by_stones is None:
        return _stretched_detection(image, outlined)
    grid, sure, details = by_stones
    confidence = min(outlined.confidence, _reading_confidence(sure))
    return BoardDetection(grid=grid, confidence=confidence, details={**details, "certainty": sure})


def _stretched_outline_settled(
    image: npt.NDArray[np.uint8], found: BoardDetection
) -> BoardDetection:
    """The last resort's grid, its window moved onto the board, never reported sure.

    A stretched outline grid lies on the board's lines but may lie a line off
    them all (dev 333 #225: lines plain both ways, a line off at every side).
    Its window is moved as an unsure placement's is (:func:`_window_moved`):
    333 #225's crossings beyond its sides do not tell, but its stones left
    outside it and the board's lines ending do. Its confidence is at most
    ``FAINT_CONFIDENCE``, as the other last resorts'.
    """
    if found.grid is None:
        return found
    details = dict(found.details)
    grid = _window_moved(image, found.grid, details)
    if grid is not found.grid:
        details["certainty"] = certainty(image, grid)
    confidence = min(found.confidence, FAINT_CONFIDENCE)
    return BoardDetection(grid=grid, confidence=confidence, details=details)


def _stretched_detection(image: npt.NDArray[np.uint8], found: BoardDetection) -> BoardDetection:
    """``found`` stretched onto the board's lines where it reads better so.

    :func:`_stretched_onto_lines`, on a grid an outline or faint lines placed.
    """
    if found.grid is None:
        return found
    stretched = _stretched_onto_lines(image, found.grid, float(found.details["certainty"]))
    if stretched is None:
        return found
    grid, sure, rounds = stretched
    details = {**found.details, "certainty": sure, "stretched": float(rounds)}
    confidence = min(found.confidence, _reading_confidence(sure))
    return BoardDetection(grid=grid, confidence=confidence, details=details)


def _snapped_surer(
    image: npt.NDArray[np.uint8], grid: Grid, sure: float
) -> tuple[Grid, float, int] | None:
    """The grid snapped onto the lines near it as long as each snap reads surer."""
    return _moved_while_better(image, grid, sure, snap_to_lines, times=SNAP_STEPS, surer=SNAP_SURER)


def _stones_reading_better(
    image: npt.NDArray[np.uint8], placed: Grid, sure: float, *, blobs_tried: bool = False
) -> tuple[Grid, float, dict[str, float]] | None:
    """The grid through the stones' lattice, centred on them, if it reads surer by ``STONES_SURER``.

    On a crowded board the seams between touching stones pass for lines; the
    lines' lattice may then be squeezed or tilted a line or two, where the
    stones' own lattice (:func:`vision.grid.find_by_stones`) is not. ``sure`` is
    the certainty of ``placed``, the lines' grid; where it reads as a nearly
    full board (``CROWDED``), the lattice of the stones' cores is tried too
    (alone where ``placed`` came from the blobs' lattice: ``blobs_tried``).
    A nearly full board's wood shows as no one patch, so the grids in the
    outlines of its stones (:func:`vision.outline.stones_outlines`) are
    weighed too, where they read as a nearly full board (``CROWDED``): the
    lines' window and the blobs' lattice can both lie lines off, or take the
    gaps between the stones (dev 1357 #280, 3333 #55).
    Returns the grid, its certainty, and details: ``by_stones``, ``stones`` on
    the lattice, ``loose`` blobs or not (or ``touching``), ``centred``; or
    ``stones_outline``.
    """
    best: tuple[Grid, float, dict[str, float]] | None = None
    kinds = [] if blobs_tried else [(False, False), (True, False)]
    if _stone_share(image, placed) >= CROWDED:
        kinds.append((False, True))
    tries: list[tuple[bool, bool, int | None]] = [
        (loose, touching, None) for loose, touching in kinds
    ]
    while tries:
        loose, touching, diagonal = tries.pop(0)
        found = find_by_stones(
            image, size=placed.size, loose=loose, touching=touching, diagonal=diagonal
        )
        if found.grid is None:
            if diagonal is None and not touching:
                # Perhaps the gaps between crowded stones made the lattice √2 finer.
                tries[:0] = [(loose, touching, 0), (loose, touching, 1)]
            continue
        grid, gain = centre_on_stones(image, found.grid)
        sure_stones = certainty(image, grid)
        if best is None or sure_stones > best[1]:
            details = {"by_stones": 1.0, "stones": found.details["stones"], "loose": float(loose)}
            if touching:
                details["touching"] = 1.0
            if diagonal is not None:
                details["diagonal"] = float(diagonal)
            if gain != 0.0:
                details["centred"] = gain
            best = (grid, sure_stones, details)
    for outlined in outline_grids(
        image, size=placed.size, at_least=sure + STONES_SURER, outlines=stones_outlines(image)
    ):
        if best is not None and outlined.certainty <= best[1]:
            continue
        if _stone_share(image, outlined.grid) >= CROWDED:
            best = (outlined.grid, outlined.certainty, {"stones_outline": 1.0})
    return best if best is not None and best[1] >= sure + STONES_SURER else None


def _found_in_stones_outline(image: npt.NDArray[np.uint8], size: int) -> BoardDetection:
    """A nearly full board in the outline of its stones, where nothing else found a board.

    The grids in the stones' outlines (:func:`vision.outline.stones_outlines`)
    that read as a nearly full board (``CROWDED``), judged by the floors a
    board's outline must pass (:func:`vision.outline.find_by_outline`); its
    confidence at most ``FAINT_CONFIDENCE``, as the other last resorts'. Dev
    photos (eight seeds): of the 271 such grids on the 90 no-board photos with
    any, none reads crowded (0.43 of its points stones at most), nor any of the
    52 grids half a cell or more off the boards nothing found; 555 #271, a
    full 9×9 board in blur the lines and its wood's outline missed, is read.
    """
    outlined = outline_grids(image, size=size, outlines=stones_outlines(image))
    grids = [g for g in outlined if _stone_share(image, g.grid) >= CROWDED]
    found = find_by_outline(image, size=size, grids=grids)
    if found.grid is None:
        crowded = f"{len(grids)} of {len(outlined)} grids crowded"
        return BoardDetection(
            grid=None,
            reason="no board found: no grid in the stones' outlines reads as a nearly full "
            f"board ({crowded})",
        )
    details = {**found.details, "stones_outline": 1.0}
    return BoardDetection(
        grid=found.grid, confidence=min(found.confidence, FAINT_CONFIDENCE), details=details
    )


def _stone_share(image: npt.NDArray[np.uint8], grid: Grid) -> float:
    """The share of ``grid``'s points read as stones."""
    board = np.array([list(row) for row in read_stones(image, grid, look_again=False).board])
    return float(np.mean(board != "."))


def _found_by_stones_alone(
    image: npt.NDArray[np.uint8], size: int, *, touching: bool = False
) -> BoardDetection:
    """The grid through the blobs of touching stones too, where nothing else found a board.

    Loose blobs take in specks, so the board must read as one: its stones sure
    (``MIN_CERTAINTY``) and standing out from half a cell off (``MIN_CONTRAST``),
    the floors a board's outline must pass; or, as a line grid must, surer
    (``LINED_CERTAINTY``) and standing out at all (``BARE_CONTRAST``): a nearly
    full board reads nearly as sure half a cell off. Either class of the
    blobs' lattice's points is tried too (``diagonal``, the gaps between crowded
    stones being blobs too), and the surest grid that passes is kept.
    ``touching``: through the cores of the dark and bright regions instead
    (:func:`vision.lattice.touching_centres`), where stones merge into regions
    on a nearly full board, under the outline's floors only (its lattice a cell
    off on dev 555 #94 reads -0.019, and 0.037 over half a cell off).
    """
    best: BoardDetection | None = None
    # The plain lattice's failure names the search's; its classes are a retry.
    failed = BoardDetection(
        grid=None, reason="no board found: the stones' lattice does not read as a board"
    )
    for diagonal in (None,) if touching else (None, 0, 1):
        found = find_by_stones(
            image, size=size, loose=not touching, touching=touching, diagonal=diagonal
        )
        if found.grid is None:
            if diagonal is None:
                failed = found
            continue
        grid, gain = centre_on_stones(image, found.grid)
        sure = certainty(image, grid)
        contrast = half_cell_contrast(image, grid)
        stands_out = sure >= MIN_CERTAINTY and contrast >= MIN_CONTRAST
        bare = not touching and sure >= LINED_CERTAINTY and contrast >= BARE_CONTRAST
        if not (stands_out or bare):
            continue
        if best is not None and sure <= best.details["certainty"]:
            continue
        details = {**found.details, "touching" if touching else "loose": 1.0, "certainty": sure}
        if diagonal is not None:
            details["diagonal"] = float(diagonal)
        if gain != 0.0:
            details["centred"] = gain
        confidence = min(found.confidence, _reading_confidence(sure))
        best = BoardDetection(grid=grid, confidence=confidence, details=details)
    return best if best is not None else failed


def _found_by_faint_lines(
    image: npt.NDArray[np.uint8], size: int, rng: np.random.Generator | None
) -> BoardDetection:
    """The grid of faint lines (:func:`vision.grid.find_faint_grid`), where nothing else found one.

    Equalising the photo raises the grain and the floor's joints with the lines,
    so the grid must read as a board (:func:`_checked_reading`); it is then
    stretched onto the lines where that reads better (:func:`_stretched_onto_lines`).
    """
    checked = _checked_reading(image, find_faint_grid(image, size=size, rng=rng))
    return _stretched_detection(image, checked) if checked else checked


def _checked_reading(
    image: npt.NDArray[np.uint8],
    found: BoardDetection,
    *,
    laid: bool = False,
    reads: Callable[[npt.NDArray[np.uint8], Grid, float], bool] | None = None,
) -> BoardDetection:
    """A last resort's grid, if it reads as a board by the floors a board's outline must pass.

    Stones sure (``MIN_CERTAINTY``) and standing out from half a cell off
    (``MIN_CONTRAST``), or, blurred, less sure (``BLURRED_CERTAINTY``) but
    standing out plainly (``DISTINCT_CONTRAST``), or surer (``LINED_CERTAINTY``)
    with lines that show both ways (``MIN_LINE_CONTRAST``,
    :func:`vision.outline.weaker_lines`), or lines that show both ways clearly
    (``WELL_LINED``) however unsure its stones. An unsure
    placement is centred on its stones first, and with ``laid`` also laid on the
    board's lines and stones (:func:`_laid_on_board`); where that grid does not
    read as a board, the grid as found is judged too: on an empty board the
    stones cannot tell where the grid lies, and centring on them can move a grid
    laid on the lines off them (dev 555 #267). Its confidence is at most
    ``FAINT_CONFIDENCE``. ``reads`` replaces the floors (:func:`_reads_as_board`).
    """
    if found.grid is None:
        return found
    reads_as_board = _reads_as_board if reads is None else reads
    grid, gain = found.grid, 0.0
    moves: dict[str, float] = {}
    unsure = found.details.get("evidence", 0.0) < SURE_EVIDENCE
    if unsure:
        grid, gain = centre_on_stones(image, grid)
    sure = certainty(image, grid)
    if unsure and laid:
        grid, sure = _laid_on_board(image, grid, sure, moves)
    if not reads_as_board(image, grid, sure):
        if grid is found.grid:
            return _not_a_board(found)
        grid, gain, moves = found.grid, 0.0, {}
        sure = certainty(image, grid)
        if not reads_as_board(image, grid, sure):
            return _not_a_board(found)
    details = {**found.details, **moves, "certainty": sure}
    if gain != 0.0:
        details["centred"] = gain
    confidence = min(FAINT_CONFIDENCE, found.confidence, _reading_confidence(sure))
    return BoardDetection(grid=grid, confidence=confidence, details=details)


def _reads_as_board(image: npt.NDArray[np.uint8], grid: Grid, sure: float) -> bool:
    """Whether ``grid`` (its stones reading ``sure``) passes :func:`_checked_reading`'s floors."""
    contrast = half_cell_contrast(image, grid) if sure >= BLURRED_CERTAINTY else -np.inf
    if (sure >= MIN_CERTAINTY and contrast >= MIN_CONTRAST) or contrast >= DISTINCT_CONTRAST:
        return True
    lines = weaker_lines(image, grid)
    return lines >= MIN_LINE_CONTRAST and (sure >= LINED_CERTAINTY or lines >= WELL_LINED)


def _reads_as_learned_board(image: npt.NDArray[np.uint8], grid: Grid, sure: float) -> bool:
    """The floors, or stones as sure as ``MIN_CERTAINTY`` standing out by ``LEARNED_CONTRAST``.

    For a grid on corners the network is sure of (``LEARNED_HEAT``): its shape
    is evidence the lines and stones could not give.
    """
    if _reads_as_board(image, grid, sure):
        return True
    return sure >= MIN_CERTAINTY and half_cell_contrast(image, grid) >= LEARNED_CONTRAST


def _not_a_board(found: BoardDetection) -> BoardDetection:
    """The failure of a last resort's grid that does not read as a board."""
    kind = next((k for k in ("blurred", "combed") if found.details.get(k)), "faint")
    return BoardDetection(
        grid=None, reason=f"no board found: the {kind} lines' grid does not read as a board"
    )


def _outline_reading_better(
    image: npt.NDArray[np.uint8], grid: Grid, sure: float, evidence: float
) -> OutlineGrid | None:
    """The grid in a board outline that reads clearly better than the lines' ``grid``, if any.

    Surer by ``OUTLINE_SURER`` per point, with stones that stand out from half a
    cell off at least as much, and, where the lines' grid shows its lines, lines
    that still show (``OUTLINE_LINES_KEPT``): the lines' window was lines off, or
    their lattice squeezed by a wrong perspective. Of several, the surest.
    Failing that, as sure and as distinct, with lines that show more by
    ``OUTLINE_LINES_CLEARER``: the most lined. ``sure`` is ``grid``'s certainty,
    ``evidence`` its line crossings.

    A grid whose stones read near certain (within ``OUTLINE_SURER``) is checked
    only where its crossings are faint (under ``FAINT_EVIDENCE``), and only for
    clearer lines: on a sparse or empty board a window a line off reads its few
    stones as surely, and as distinctly from half a cell off, as the right one.
    """
    near_certain = sure + OUTLINE_SURER > 0.0
    if near_certain and evidence >= FAINT_EVIDENCE:
        # An outline search (seconds) would rarely change it.
        return None
    contrast = -np.inf if near_certain else half_cell_contrast(image, grid)
    # Only the hulls' outlines: each more is a chance to replace a right grid,
    # and the four edges' quadrilaterals took one (dev 555 #234, then 0.7 of a
    # cell off at 0.59). They read boards no line search placed (1357 #193).
    outlined = outline_grids(image, size=grid.size, at_least=sure, edges=False)
    candidates = [c for c in outlined if c.contrast >= contrast]
    own_lines = line_contrast(image, grid)
    kept = OUTLINE_LINES_KEPT * own_lines if own_lines >= MIN_LINE_CONTRAST else -np.inf
    surer = [c for c in candidates if c.certainty >= sure + OUTLINE_SURER and c.lines >= kept]
    if surer:
        return max(surer, key=lambda c: c.certainty)
    lines = max(MIN_LINE_CONTRAST, own_lines + OUTLINE_LINES_CLEARER)
    lined = [c for c in candidates if c.lines >= lines]
    return max(lined, key=lambda c: c.lines) if lined else None
