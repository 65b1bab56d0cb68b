"""An operation is not offered where the lawyer counts more asks than were read (gates.counted_asks).

Drafting-o's blind review (spent after its one run) found the period operation's draft reported
complete on a two-point ask whose second point (the price) no part read: "60 days: done", the price
left as it was. The fixture is that task's clause and instruction (ACORD, drafting-o, o-multi-01)."""

from addin_server.draft.gates import counted_asks, unread
from addin_server.draft.instruction import read_instruction

CLAUSE = ("AIRSOPURE shall have the right, but not the duty, to be exercised by notice of intent to do so within 30 "
          "days after termination or expiration, to purchase any or all signs, advertising materials, supplies and "
          "inventory and any other items bearing AIRSOPURE's Licensed Marks, at Your cost or at fair market value, "
          "whichever is less.")
ASK = ("The franchise disclosure document's Item 17 table (row 'Franchisor's option to purchase your assets') tells "
       "prospective franchisees: \"Within 60 days after termination or expiration we may buy your signs, advertising "
       "materials, supplies and inventory bearing our marks, at fair market value.\" The agreement says something "
       "else on two points. Make the agreement match the disclosure: the 60-day window and the fair-market-value "
       "price. It stays a right and not a duty, exercised by notice of intent.")


def test_two_points_counted_one_read_is_not_read_whole():
    ins = read_instruction(ASK, CLAUSE)
    reason = counted_asks(ins)
    assert "counts two asks" in reason
    assert unread(ins, CLAUSE) == reason


def test_as_many_asks_read_as_counted_passes():
    ins = read_instruction("Two changes: make the notice period 15 days instead of 30 days, and make it mutual.",
                           "The Supplier shall give the Customer 30 days' written notice of any price change.")
    assert len(ins.parts) >= 2
    assert counted_asks(ins) == ""


def test_a_count_that_is_not_of_asks_is_no_count():
    ins = read_instruction("Give two weeks' notice instead of 30 days.",
                           "The Supplier shall give the Customer 30 days' written notice of any price change.")
    assert counted_asks(ins) == ""
