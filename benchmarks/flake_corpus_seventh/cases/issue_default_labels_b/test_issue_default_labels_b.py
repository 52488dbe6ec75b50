import issue_default_labels_b_issues as issues


def test_plain_issue_is_triaged():
    assert issues.new_issue("Typo on checkout page")["labels"][0] == "triage"


def test_bug_report_labels():
    issue = issues.new_issue("Checkout crashes on empty cart", extra_labels=["bug"])
    assert issue["labels"] == ["triage", "bug"]
