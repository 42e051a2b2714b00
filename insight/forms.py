"""The period the insight page covers, chosen with ?dagen=7|30|90."""

from django import forms

from insight.presentation import DEFAULT_PERIOD, PERIOD_CHOICES

INVALID_PERIOD = f"Kies een periode van {', '.join(map(str, PERIOD_CHOICES[:-1]))} of {PERIOD_CHOICES[-1]} dagen; u ziet nu de laatste {DEFAULT_PERIOD} dagen."


class PeriodForm(forms.Form):
    dagen = forms.TypedChoiceField(
        choices=[(str(days), f"{days} dagen") for days in PERIOD_CHOICES],
        coerce=int,
        required=False,
        error_messages={"invalid_choice": INVALID_PERIOD},
    )

    def days(self) -> int:
        """The chosen number of days; the default when none or an invalid one was given."""
        if self.is_valid() and self.cleaned_data["dagen"]:
            return self.cleaned_data["dagen"]
        return DEFAULT_PERIOD
