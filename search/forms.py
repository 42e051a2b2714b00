"""Forms of the specialist pages: the situation, a vote and a guideline question (all messages in Dutch)."""

from django import forms

from search.pipeline.budget import budget_from_field
from search.pipeline.errors import SearchInputError
from search.pipeline.request import MAX_QUERY_LENGTH, SearchRequest, validate_query

TOP_K = 5  # three cards plus "Overweeg eventueel ook" for ranks 4 and 5
VOTE_CHOICE_MESSAGE = "Kies ‘Bruikbaar’ of ‘Niet bruikbaar’."


def _text(label: str, max_length: int, placeholder: str = "") -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,
        max_length=max_length,
        widget=forms.TextInput(attrs={"placeholder": placeholder, "autocomplete": "off"}),
    )


def _validated(value: str) -> str:
    try:
        return validate_query(value)
    except SearchInputError as error:
        raise forms.ValidationError(str(error)) from error


class SearchForm(forms.Form):
    # Not required at field level: the pipeline's own check gives the one Dutch message for an empty
    # situation, while the widget still carries `required` for the browser.
    situatie = forms.CharField(
        label="Situatie van de werknemer",
        help_text="Beschrijf klachten, verzuimduur, functie en wat al is geprobeerd (maximaal 1000 tekens).",
        required=False,
        strip=True,
        widget=forms.Textarea(
            attrs={
                "rows": 6,
                "required": True,
                "maxlength": MAX_QUERY_LENGTH,
                "placeholder": "Bijvoorbeeld: werknemer met burn-out klachten, 6 maanden verzuim, management functie",
            }
        ),
    )
    naam = _text("Naam", 100, "Bijv. Jan de Vries")
    bedrijf = _text("Bedrijf", 100, "Bijv. Acme BV")
    functie = _text("Functie", 100, "Bijv. teamleider")
    sector = _text("Sector", 100, "Bijv. zorg")
    verzuimduur = _text("Verzuimduur", 50, "Bijv. 6 weken")
    budget = _text("Budget", 100, "Bijv. tot € 2.500")

    def clean_situatie(self) -> str:
        return _validated(self.cleaned_data["situatie"])

    def clean_budget(self) -> str:
        try:
            budget_from_field(self.cleaned_data["budget"])
        except SearchInputError as error:
            raise forms.ValidationError(str(error)) from None
        return self.cleaned_data["budget"]

    def search_request(self) -> SearchRequest:
        data = self.cleaned_data
        return SearchRequest(
            query=data["situatie"],
            mode="two-stage",
            top_k=TOP_K,
            role=data["functie"],
            sector=data["sector"],
            duration=data["verzuimduur"],
            budget=data["budget"],
            employee_name=data["naam"],
            company_name=data["bedrijf"],
        )


class VoteForm(forms.Form):
    value = forms.TypedChoiceField(
        choices=((1, "Bruikbaar"), (-1, "Niet bruikbaar")),
        coerce=int,
        error_messages={"required": VOTE_CHOICE_MESSAGE, "invalid_choice": VOTE_CHOICE_MESSAGE},
    )
    comment = forms.CharField(label="Toelichting (optioneel)", required=False, max_length=1000)


class QuestionForm(forms.Form):
    q = forms.CharField(
        label="Uw vraag over de richtlijnen",
        required=False,
        widget=forms.Textarea(
            attrs={
                "rows": 3,
                "required": True,
                "maxlength": MAX_QUERY_LENGTH,
                "placeholder": "Bijvoorbeeld: wanneer moet het plan van aanpak klaar zijn?",
            }
        ),
    )

    def clean_q(self) -> str:
        return _validated(self.cleaned_data["q"])
