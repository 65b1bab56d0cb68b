from index_builder.retrieve.variations import group_variations, similarity, words

CAP = ("12.1 In no event shall either party's aggregate liability exceed the fees paid by "
       "Customer in the twelve months before the claim.")
CAP_COPY = ("8.4 In no event shall either party's aggregate liability exceed the fees paid by "
            "Customer in the twelve (12) months before the claim.")
CAP_OTHER = "Supplier's liability is limited to the amount recoverable under its insurance."
LAW = "This Agreement is governed by the laws of the State of New York."


def test_numbering_case_and_punctuation_do_not_count():
    assert words(CAP)[:3] == ["in", "no", "event"]
    assert similarity(words(CAP), words(CAP.upper().replace("12.1 ", "(a) "))) == 1.0


def test_every_typed_number_the_core_reads_is_dropped_before_copies_are_compared():
    # Copies of one clause numbered the way each agreement numbers it (ACORD has all of these).
    for label in ("ARTICLE VII ", "7) ", "Section 14: ", "XI. ", "(2) "):
        assert similarity(words(CAP), words(label + CAP[5:])) == 1.0, label


def test_threshold_separates_minor_from_major_variations():
    groups = group_variations([CAP, CAP_OTHER, CAP_COPY, LAW], str, limit=10, threshold=0.9)
    assert [g.leader for g in groups] == [CAP, CAP_OTHER, LAW]
    assert [v for v, _ in groups[0].variants] == [CAP_COPY]
    assert 0.9 <= groups[0].variants[0][1] < 1.0
    exact_only = group_variations([CAP, CAP_COPY], str, limit=10, threshold=1.0)
    assert len(exact_only) == 2


def test_limit_caps_groups_but_copies_still_join():
    groups = group_variations([CAP, LAW, CAP_OTHER, CAP_COPY], str, limit=2, threshold=0.9)
    assert [g.leader for g in groups] == [CAP, LAW]
    assert [v for v, _ in groups[0].variants] == [CAP_COPY]


def test_zero_threshold_turns_grouping_off():
    groups = group_variations([CAP, CAP], str, limit=5, threshold=0)
    assert len(groups) == 2 and not groups[0].variants
