"""Guide signs: route shields, mile marker, exit and distance signs (green), and
service signs (blue)."""

from .colors import BLACK, BLUE, GREEN, WHITE, YELLOW
from .shapes import Outline, pentagon, rect
from .items import A, DOT, F, FACE, G, RJOIN, ROUND, S, SHAPE, T
from .pictograms import bed, bicycle, fork_knife
from .families import INTERSTATE, interstate_red_band, US_SHIELD
from .canvas import Table

SIGNS = Table()
sign = SIGNS.add

sign("interstate-route", (24, 24, [
    SHAPE(Outline(INTERSTATE, 12, 12.8, 22), WHITE),
    SHAPE(Outline(INTERSTATE, 12, 12.8, 22), BLUE, inset=1.1),
    interstate_red_band,
    S("M 1.5 8.2 H 22.5", 0.7, WHITE),
    T("INTERSTATE", 12, 5.7, 1.45, WHITE, maxw=13.5),
    T("95", 12, 14.8, 8.0, WHITE, maxw=15)]))
sign("us-route", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLACK),
    SHAPE(Outline(US_SHIELD, 12, 12.4, 22), WHITE),
    T("1", 12, 12.0, 9.0, BLACK)]))
sign("hospital", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    T("H", 12, 12, 14.5)]))
sign("gas-station", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    SHAPE(rect(6.4, 4.6, 8.2, 15.2, 0.7), WHITE),
    SHAPE(rect(7.9, 6.3, 5.2, 4.4, 0.3), BLUE),
    F("M 5.4 19.0 H 15.6 V 20.6 H 5.4 Z"),
    S("M 14.6 15.6 H 16.4 C 17.3 15.6 17.8 15.1 17.8 14.2 V 8.6 L 16.2 6.8", 1.0,
      cap=ROUND, join=RJOIN),
    F("M 15.4 5.6 L 17.4 7.4 L 16.6 8.1 L 14.8 6.4 Z")]))
sign("rest-area", (48, 30, [
    FACE(rect(0, 0, 48, 30, 2.0), GREEN, WHITE, 0.6, 0.9, ink=WHITE),
    T("REST AREA", 24, 9.4, 5.4, maxw=38),
    A("M 20.6 25.6 L 27.4 18.8", 2.6, hw=7.0, hl=4.2)]))
sign("state-route", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLACK),
    DOT(12, 12, 10.4, WHITE),
    T("27", 12, 12, 8.4, BLACK, maxw=15)]))
sign("county-route", (24, 24, [
    FACE(pentagon(24, 24, 7.6, r=1.2), BLUE, YELLOW, 0.4, 0.8, ink=YELLOW),
    T("COUNTY", 12, 9.6, 2.4, maxw=14),
    T("12", 12, 16.6, 7.6, maxw=16)]))
sign("mile-marker", (10, 24, [
    FACE(rect(0, 0, 10, 24, 0.8), GREEN, WHITE, 0.3, 0.5, ink=WHITE),
    T("MILE", 5, 3.8, 1.7, maxw=7.5), T("4", 5, 10.4, 5.0), T("2", 5, 18.0, 5.0)]))
sign("exit-number", (48, 36, [
    FACE(rect(25, 0, 21, 9, 1.0), GREEN, WHITE, 0.4, 0.6, ink=WHITE),
    T("EXIT 42", 35.5, 4.8, 3.2, maxw=17),
    FACE(rect(0, 8.4, 48, 27.6, 1.5), GREEN, WHITE, 0.5, 0.75, ink=WHITE),
    T("Oak St", 24, 18.4, 5.4, maxw=40), T("1 MILE", 24, 29.0, 3.8, maxw=40)]))
sign("exit-only", (48, 36, [
    FACE(rect(0, 0, 48, 36, 1.5), GREEN, WHITE, 0.5, 0.75, ink=WHITE),
    T("Airport", 24, 7.4, 4.8, maxw=40),
    A("M 24 12.0 V 17.2", 2.6, hw=6.4, hl=3.4),
    SHAPE(rect(1.25, 23.2, 45.5, 11.55, 0.3), YELLOW),
    T("EXIT", 11.8, 29.0, 4.0, BLACK, maxw=16),
    A("M 24 25.0 V 29.6", 2.2, hw=5.0, hl=2.8, color=BLACK),
    T("ONLY", 36.4, 29.0, 4.0, BLACK, maxw=16)]))
sign("distance-sign", (48, 30, [
    FACE(rect(0, 0, 48, 30, 1.5), GREEN, WHITE, 0.5, 0.75, ink=WHITE),
    T("Elm City", 4.2, 8.0, 4.0, align="l"), T("12", 43.8, 8.0, 4.0, align="r"),
    T("Oakdale", 4.2, 15.0, 4.0, align="l"), T("27", 43.8, 15.0, 4.0, align="r"),
    T("Riverton", 4.2, 22.0, 4.0, align="l"), T("48", 43.8, 22.0, 4.0, align="r")]))
sign("food", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    G(fork_knife(), 7.5, 3.5, 1.0)]))
sign("lodging", (24, 24, [
    FACE(rect(0, 0, 24, 24, 1.5), BLUE, WHITE, 0.5, 0.75, ink=WHITE),
    G(bed(), 3.0, 7.0, 1.0)]))
sign("bike-route", (24, 18, [
    FACE(rect(0, 0, 24, 18, 1.2), GREEN, WHITE, 0.4, 0.6, ink=WHITE),
    G(bicycle(), 7.4, 1.8, 0.72),
    T("BIKE ROUTE", 12, 14.4, 2.6, maxw=20)]))

