from django.http import JsonResponse

def submit_action(request, game_id): return JsonResponse({})
def game_state(request, game_id): return JsonResponse({})

